// Package transfer moves blobs: resumable downloads from the artifact
// store and its mirrors, and metrics pushes.
package transfer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// Downloader fetches blobs over HTTP, resuming with Range requests.
type Downloader struct {
	hc          *http.Client
	budget      *budget.Adaptive
	maxAttempts int
}

// Fetch copies url into w, resuming where a dropped connection left off.
func (d *Downloader) Fetch(ctx context.Context, url string, w io.Writer) (n int64, err error) {
	seq := budget.Backoff{}.Start()
	for attempt := 1; attempt <= d.maxAttempts; attempt++ {
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return n, err
		}
		if n > 0 {
			req.Header.Set("Range", fmt.Sprintf("bytes=%d-", n))
		}
		var resp *http.Response
		resp, err = d.hc.Do(req)
		if err == nil {
			switch {
			case resp.StatusCode == http.StatusOK && n > 0:
				// the server ignored Range: w already holds a prefix
				resp.Body.Close()
				return n, errors.New("server does not support range requests")
			case resp.StatusCode == http.StatusOK, resp.StatusCode == http.StatusPartialContent:
				var copied int64
				copied, err = io.Copy(w, resp.Body)
				n += copied
			default:
				err = fmt.Errorf("GET %s: %s", url, resp.Status)
			}
			resp.Body.Close()
		}
		d.budget.Record(err)
		if err == nil {
			return n, nil
		}
		if attempt == d.maxAttempts || !d.budget.Allow() {
			break
		}
		if serr := budget.Sleep(ctx, seq.Next()); serr != nil {
			return n, serr
		}
	}
	return n, fmt.Errorf("download %s after %d bytes: %w", url, n, err)
}

// FetchFromMirrors tries each mirror in turn until one serves path.
func (d *Downloader) FetchFromMirrors(ctx context.Context, mirrors []string, path string) ([]byte, error) {
	var errs []error
	for _, m := range mirrors {
		var buf bytes.Buffer
		_, err := d.Fetch(ctx, strings.TrimRight(m, "/")+path, &buf)
		if err == nil {
			return buf.Bytes(), nil
		}
		errs = append(errs, fmt.Errorf("%s: %w", m, err))
	}
	return nil, fmt.Errorf("all mirrors failed: %w", errors.Join(errs...))
}

// get copies url from byte off into w.
func (d *Downloader) get(url string, off int64, w io.Writer) (int64, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	if off > 0 {
		req.Header.Set("Range", fmt.Sprintf("bytes=%d-", off))
	}
	resp, err := d.hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusPartialContent {
		return 0, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return io.Copy(w, resp.Body)
}

// FetchToFile downloads url into path. A partial file is removed when the
// download finally fails.
func (d *Downloader) FetchToFile(url, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	var off int64
	for attempt := 1; ; attempt++ {
		n, err := d.get(url, off, f)
		off += n
		if err == nil {
			return f.Close()
		}
		if attempt == 3 {
			f.Close()
			os.Remove(path)
			return fmt.Errorf("fetch %s: %w", url, err)
		}
		time.Sleep(time.Second)
	}
}

// replaceFile moves tmp over dst. On Windows a virus scanner may hold dst
// open for a moment, which shows as a permission error.
func replaceFile(tmp, dst string) (err error) {
	for attempt := 0; attempt < 5; attempt++ {
		if err = os.Rename(tmp, dst); err == nil {
			return nil
		}
		if !errors.Is(err, fs.ErrPermission) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	os.Remove(tmp)
	return fmt.Errorf("replace %s: %w", dst, err)
}

// Install downloads url to a temporary file next to dst and swaps it in.
func (d *Downloader) Install(url, dst string) error {
	tmp := dst + ".part"
	if err := d.FetchToFile(url, tmp); err != nil {
		return err
	}
	return replaceFile(tmp, dst)
}
