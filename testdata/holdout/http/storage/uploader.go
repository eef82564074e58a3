// Package storage uploads objects to an S3-compatible object store.
package storage

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"example.com/holdouthttp/retryutil"
	"github.com/retrylint/retrylint/budget"
)

// Uploader writes objects to a bucket.
type Uploader struct {
	Endpoint string
	Bucket   string
	// Replicas are read-only mirrors, tried in order.
	Replicas []string

	hc     *http.Client
	budget *budget.Adaptive
}

// NewUploader returns an Uploader with a 30 s per-request timeout.
func NewUploader(endpoint, bucket string) *Uploader {
	return &Uploader{
		Endpoint: endpoint,
		Bucket:   bucket,
		hc:       &http.Client{Timeout: 30 * time.Second},
		budget:   new(budget.Adaptive),
	}
}

func (u *Uploader) objectURL(key string) string {
	return u.Endpoint + "/" + u.Bucket + "/" + key
}

// PutObject stores data under key. PUT is idempotent, so it is safe to
// send again.
func (u *Uploader) PutObject(ctx context.Context, key string, data []byte) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if attempt > 0 {
			backoff := 100 * time.Millisecond << attempt
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(backoff):
			}
		}
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, http.MethodPut, u.objectURL(key), bytes.NewReader(data))
		if err != nil {
			return err
		}
		req.ContentLength = int64(len(data))
		var resp *http.Response
		resp, err = u.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			err = fmt.Errorf("put %s: HTTP %d", key, resp.StatusCode)
			continue
		}
		if resp.StatusCode >= 300 {
			return fmt.Errorf("put %s: HTTP %d", key, resp.StatusCode)
		}
		return nil
	}
	return err
}

type initiateResult struct {
	UploadID string `xml:"UploadId"`
}

// InitiateMultipart starts a multipart upload.
func (u *Uploader) InitiateMultipart(ctx context.Context, key string) (uploadID string, err error) {
	idemKey := budget.NewIdempotencyKey()
	err = budget.Do(ctx, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.objectURL(key)+"?uploads", nil)
		if err != nil {
			return budget.Permanent(err)
		}
		req.Header.Set("Idempotency-Key", idemKey)
		resp, err := u.hc.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 500 {
			return fmt.Errorf("initiate: HTTP %d", resp.StatusCode)
		}
		var res initiateResult
		if err := xml.NewDecoder(resp.Body).Decode(&res); err != nil {
			return budget.Permanent(err)
		}
		uploadID = res.UploadID
		return nil
	}, budget.WithBudget(u.budget))
	return uploadID, err
}

// UploadPart uploads one part of a multipart upload and returns its ETag.
func (u *Uploader) UploadPart(ctx context.Context, key, uploadID string, n int, part []byte) (string, error) {
	url := u.objectURL(key) + "?partNumber=" + strconv.Itoa(n) + "&uploadId=" + uploadID
	return retryutil.Do(ctx, 4, 200*time.Millisecond, func(ctx context.Context) (string, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, bytes.NewReader(part))
		if err != nil {
			return "", err
		}
		resp, err := u.hc.Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return "", fmt.Errorf("part %d: HTTP %d", n, resp.StatusCode)
		}
		return resp.Header.Get("ETag"), nil
	})
}

// CompleteMultipart finishes a multipart upload. The store deduplicates on
// the upload id, which we also send as the idempotency key.
func (u *Uploader) CompleteMultipart(ctx context.Context, key, uploadID string, manifest []byte) error {
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.objectURL(key)+"?uploadId="+uploadID, bytes.NewReader(manifest))
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", uploadID)
		resp, err := u.hc.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode < 500 {
				return nil
			}
		}
		// The store is busy finishing parts; ask again shortly.
		time.Sleep(budget.Jitter(time.Second))
	}
}

// GetObject reads key from the first replica that answers.
func (u *Uploader) GetObject(ctx context.Context, key string) (data []byte, err error) {
	for _, base := range u.Replicas {
		req, rerr := http.NewRequestWithContext(ctx, http.MethodGet, base+"/"+u.Bucket+"/"+key, nil)
		if rerr != nil {
			return nil, rerr
		}
		resp, derr := u.hc.Do(req)
		if derr != nil {
			err = derr
			continue // next replica
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			err = fmt.Errorf("get %s from %s: HTTP %d", key, base, resp.StatusCode)
			continue
		}
		data, err = io.ReadAll(resp.Body)
		resp.Body.Close()
		return data, err
	}
	if err == nil {
		err = errors.New("storage: no replicas configured")
	}
	return nil, err
}

// DeleteObject removes key. DELETE is idempotent; a 404 on a retry means the
// first attempt went through.
func (u *Uploader) DeleteObject(ctx context.Context, key string) error {
	attempts := 0
retry:
	attempts++
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, u.objectURL(key), nil)
	if err != nil {
		return err
	}
	resp, err := u.hc.Do(req)
	if err != nil {
		if attempts < 3 {
			time.Sleep(time.Second)
			goto retry
		}
		return err
	}
	resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound || resp.StatusCode < 300 {
		return nil
	}
	return fmt.Errorf("delete %s: HTTP %d", key, resp.StatusCode)
}

// CopyObjects copies each key to dst, one request per key.
func (u *Uploader) CopyObjects(ctx context.Context, keys []string, dst string) (copied int, err error) {
	for i, key := range keys {
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, u.Endpoint+"/"+dst+"/"+key, nil)
		if err != nil {
			return i, err
		}
		req.Header.Set("X-Amz-Copy-Source", "/"+u.Bucket+"/"+key)
		resp, err := u.hc.Do(req)
		if err != nil {
			return i, fmt.Errorf("copy %s: %w", key, err)
		}
		resp.Body.Close()
		copied++
	}
	return copied, nil
}
