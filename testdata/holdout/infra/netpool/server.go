package netpool

import (
	"bufio"
	"context"
	"errors"
	"log"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// ErrServerClosed is returned by Serve after Shutdown.
var ErrServerClosed = errors.New("netpool: server closed")

// Server answers a line protocol: one request line, one reply line.
type Server struct {
	Handler func(ctx context.Context, line string) string

	quit      chan struct{}
	closeOnce sync.Once
	wg        sync.WaitGroup
	active    atomic.Int64

	mu        sync.Mutex
	listeners map[net.Listener]struct{}
}

// NewServer returns a server calling h for every request line.
func NewServer(h func(ctx context.Context, line string) string) *Server {
	return &Server{Handler: h, quit: make(chan struct{}), listeners: map[net.Listener]struct{}{}}
}

// Serve accepts connections until Shutdown. Like net/http it backs off on
// transient accept errors (EMFILE) instead of spinning.
func (s *Server) Serve(l net.Listener) error {
	s.mu.Lock()
	s.listeners[l] = struct{}{}
	s.mu.Unlock()

	var tempDelay time.Duration // how long to sleep on accept failure
	for {
		conn, err := l.Accept()
		if err != nil {
			select {
			case <-s.quit:
				return ErrServerClosed
			default:
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				if tempDelay == 0 {
					tempDelay = 5 * time.Millisecond
				} else {
					tempDelay *= 2
				}
				if maxDelay := 1 * time.Second; tempDelay > maxDelay {
					tempDelay = maxDelay
				}
				log.Printf("netpool: accept error: %v; retrying in %v", err, tempDelay)
				time.Sleep(tempDelay)
				continue
			}
			return err
		}
		tempDelay = 0
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.handle(conn)
		}()
	}
}

// handle serves one connection until the peer hangs up.
func (s *Server) handle(conn net.Conn) {
	defer conn.Close()
	s.active.Add(1)
	defer s.active.Add(-1)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sc := bufio.NewScanner(conn)
	w := bufio.NewWriter(conn)
	for sc.Scan() {
		reply := s.Handler(ctx, sc.Text())
		if _, err := w.WriteString(reply + "\n"); err != nil {
			return
		}
		if err := w.Flush(); err != nil {
			return
		}
	}
}

// Shutdown stops accepting and waits for the active connections to finish
// or ctx to end, whichever comes first.
func (s *Server) Shutdown(ctx context.Context) error {
	s.closeOnce.Do(func() { close(s.quit) })
	s.mu.Lock()
	for l := range s.listeners {
		l.Close()
	}
	s.mu.Unlock()

	ticker := time.NewTicker(50 * time.Millisecond)
	defer ticker.Stop()
	for {
		if s.active.Load() == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ticker.C:
		}
	}
}
