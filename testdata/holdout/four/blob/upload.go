// Package blob uploads large objects to an S3-compatible store with the
// multipart protocol: initiate, PUT each part, POST the part list.
package blob

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// PartSize is the size of every part but the last.
const PartSize = 5 << 20

// Uploader talks to one bucket.
type Uploader struct {
	hc       *http.Client
	endpoint string // https://host/bucket
	budget   *budget.Adaptive
	partSize int
}

// NewUploader returns an uploader with a 30 s timeout per request.
func NewUploader(endpoint string) *Uploader {
	return &Uploader{
		hc:       &http.Client{Timeout: 30 * time.Second},
		endpoint: endpoint,
		budget:   new(budget.Adaptive),
		partSize: PartSize,
	}
}

// Part is one uploaded part.
type Part struct {
	XMLName    xml.Name `xml:"Part"`
	PartNumber int      `xml:"PartNumber"`
	ETag       string   `xml:"ETag"`
}

type completeRequest struct {
	XMLName xml.Name `xml:"CompleteMultipartUpload"`
	Parts   []Part   `xml:"Part"`
}

type initiateResult struct {
	UploadID string `xml:"UploadId"`
}

// Upload streams r to key.
func (u *Uploader) Upload(ctx context.Context, key string, r io.Reader) error {
	id, err := u.initiate(ctx, key)
	if err != nil {
		return err
	}
	buf := make([]byte, u.partSize)
	var parts []Part
	for n := 1; ; n++ {
		m, rerr := io.ReadFull(r, buf)
		if rerr == io.EOF {
			break
		}
		if rerr != nil && !errors.Is(rerr, io.ErrUnexpectedEOF) {
			u.abort(ctx, key, id)
			return fmt.Errorf("read part %d: %w", n, rerr)
		}
		etag, err := u.putPart(ctx, key, id, n, buf[:m])
		if err != nil {
			u.abort(ctx, key, id)
			return fmt.Errorf("upload part %d: %w", n, err)
		}
		parts = append(parts, Part{PartNumber: n, ETag: etag})
		if rerr != nil { // short read: that was the last part
			break
		}
	}
	return u.complete(ctx, key, id, parts)
}

// initiate starts an upload and returns its ID. The store sheds load with
// 503 and a Retry-After header.
func (u *Uploader) initiate(ctx context.Context, key string) (string, error) {
	for attempt := range 3 {
		resp, err := u.hc.Post(u.endpoint+"/"+url.PathEscape(key)+"?uploads", "application/xml", nil)
		if err != nil {
			return "", fmt.Errorf("initiate: %w", err)
		}
		if resp.StatusCode == http.StatusServiceUnavailable && attempt < 2 {
			secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
			resp.Body.Close()
			time.Sleep(time.Duration(secs) * time.Second)
			continue
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return "", fmt.Errorf("initiate: status %d", resp.StatusCode)
		}
		var res initiateResult
		if err := xml.NewDecoder(resp.Body).Decode(&res); err != nil {
			return "", fmt.Errorf("initiate: %w", err)
		}
		return res.UploadID, nil
	}
	return "", errors.New("initiate: store kept shedding load")
}

// putPart uploads one part. PUT of the same part number replaces it, so a
// replay is safe.
func (u *Uploader) putPart(ctx context.Context, key, id string, n int, data []byte) (string, error) {
	seq := budget.Backoff{}.Start()
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var etag string
		etag, err = u.putPartOnce(ctx, key, id, n, data)
		u.budget.Record(err)
		if err == nil {
			return etag, nil
		}
		if !u.budget.Allow() {
			break
		}
		if err := budget.Sleep(ctx, seq.Next()); err != nil {
			return "", err
		}
	}
	return "", err
}

func (u *Uploader) putPartOnce(ctx context.Context, key, id string, n int, data []byte) (string, error) {
	q := url.Values{"partNumber": {strconv.Itoa(n)}, "uploadId": {id}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, u.endpoint+"/"+url.PathEscape(key)+"?"+q.Encode(), bytes.NewReader(data))
	if err != nil {
		return "", err
	}
	resp, err := u.hc.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("put part: status %d", resp.StatusCode)
	}
	return resp.Header.Get("ETag"), nil
}

// complete posts the part list.
func (u *Uploader) complete(ctx context.Context, key, id string, parts []Part) error {
	body, err := xml.Marshal(completeRequest{Parts: parts})
	if err != nil {
		return err
	}
	seq := budget.Backoff{Base: 200 * time.Millisecond}.Start()
	for attempt := 1; attempt <= 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost,
			u.endpoint+"/"+url.PathEscape(key)+"?uploadId="+url.QueryEscape(id), bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/xml")
		req.Header.Set("Idempotency-Key", budget.NewIdempotencyKey())
		resp, err := u.hc.Do(req)
		u.budget.Record(err)
		if err == nil {
			code := resp.StatusCode
			resp.Body.Close()
			if code == http.StatusOK {
				return nil
			}
			if code < 500 {
				return fmt.Errorf("complete: status %d", code)
			}
		}
		if attempt == 3 || !u.budget.Allow() {
			return fmt.Errorf("complete upload %s: %v", id, err)
		}
		if err := budget.Sleep(ctx, seq.Next()); err != nil {
			return err
		}
	}
	return nil
}

// abort releases the parts of a failed upload; best effort.
func (u *Uploader) abort(ctx context.Context, key, id string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, u.endpoint+"/"+url.PathEscape(key)+"?uploadId="+url.QueryEscape(id), nil)
	if err != nil {
		return
	}
	if resp, err := u.hc.Do(req); err == nil {
		resp.Body.Close()
	}
}
