// Package netutil holds the network plumbing shared by deployctl and the
// controller: mail, DNS, port waits and retry helpers.
package netutil

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/smtp"
	"net/textproto"
	"strings"
	"time"
)

// SendMail sends msg through the relay at addr. 4xx replies and network
// errors are retried; 5xx replies are permanent.
func SendMail(addr string, auth smtp.Auth, from string, to []string, msg []byte) error {
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		if err = smtp.SendMail(addr, auth, from, to, msg); err == nil {
			return nil
		}
		var tpErr *textproto.Error
		if errors.As(err, &tpErr) && tpErr.Code >= 500 {
			return fmt.Errorf("smtp %s rejected message: %w", addr, err)
		}
		time.Sleep(time.Duration(attempt) * 2 * time.Second)
	}
	return fmt.Errorf("smtp %s: %w", addr, err)
}

// Mailer delivers directly to a domain's MX hosts.
type Mailer struct {
	Resolver *net.Resolver
	HELO     string
}

// Send tries each MX host of the recipients' domain in preference order.
func (m *Mailer) Send(ctx context.Context, domain, from string, to []string, msg []byte) error {
	mxs, err := m.Resolver.LookupMX(ctx, domain)
	if err != nil {
		return fmt.Errorf("mx %s: %w", domain, err)
	}
	var errs []error
	for _, mx := range mxs {
		addr := net.JoinHostPort(strings.TrimSuffix(mx.Host, "."), "25")
		err := m.deliver(ctx, addr, from, to, msg)
		if err == nil {
			return nil
		}
		errs = append(errs, err)
	}
	return fmt.Errorf("deliver to %s: %w", domain, errors.Join(errs...))
}

func (m *Mailer) deliver(ctx context.Context, addr, from string, to []string, msg []byte) error {
	d := net.Dialer{Timeout: 10 * time.Second}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	host, _, _ := net.SplitHostPort(addr)
	c, err := smtp.NewClient(conn, host)
	if err != nil {
		conn.Close()
		return err
	}
	defer c.Close()
	if err := c.Hello(m.HELO); err != nil {
		return err
	}
	if err := c.Mail(from); err != nil {
		return err
	}
	for _, rcpt := range to {
		if err := c.Rcpt(rcpt); err != nil {
			return fmt.Errorf("rcpt %s: %w", rcpt, err)
		}
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(msg); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}
