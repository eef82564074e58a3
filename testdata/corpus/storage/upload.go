// Package storage uploads objects in parts, in the shape of the cloud
// storage resumable and multipart uploaders, and elects a leader for the
// compaction job.
package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"time"
)

// Uploader uploads to a bucket.
type Uploader struct {
	hc     *http.Client
	bucket string
}

// UploadParts PUTs each part, retrying a failed part a second apart.
func (u *Uploader) UploadParts(ctx context.Context, name string, parts [][]byte) error {
	for i, part := range parts {
		url := fmt.Sprintf("%s/%s?partNumber=%d", u.bucket, name, i+1)
		var err error
		for attempt := 0; attempt < 3; attempt++ {
			var req *http.Request
			req, err = http.NewRequestWithContext(ctx, http.MethodPut, url, bytes.NewReader(part))
			if err != nil {
				return err
			}
			var resp *http.Response
			if resp, err = u.hc.Do(req); err == nil {
				resp.Body.Close()
				break
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Second):
			}
		}
		if err != nil {
			return fmt.Errorf("part %d: %w", i+1, err)
		}
	}
	return nil
}

// writeFull writes until every byte is out (a progress loop).
func writeFull(c net.Conn, b []byte) error {
	for len(b) > 0 {
		n, err := c.Write(b)
		if err != nil {
			return err
		}
		b = b[n:]
	}
	return nil
}

// drain reads until EOF.
func drain(c net.Conn) (int, error) {
	buf := make([]byte, 512)
	total := 0
	for {
		n, err := c.Read(buf)
		total += n
		if errors.Is(err, io.EOF) {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

// Send writes a frame and drains the answer.
func Send(c net.Conn, frame []byte) (int, error) {
	if err := writeFull(c, frame); err != nil {
		return 0, err
	}
	return drain(c)
}

// Elector campaigns for the compaction lease.
type Elector struct {
	hc   *http.Client
	lead func(context.Context)
}

func (e *Elector) campaign(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, "http://coordinator/v1/leases/compaction", nil)
	if err != nil {
		return err
	}
	resp, err := e.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Run campaigns, leads while it holds the lease, and campaigns again;
// a failed campaign waits a jittered second.
func (e *Elector) Run(ctx context.Context) {
	for {
		if err := e.campaign(ctx); err != nil {
			log.Printf("storage: campaign: %v", err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Second + rand.N(time.Second)):
			}
			continue
		}
		e.lead(ctx)
	}
}
