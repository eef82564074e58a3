package blob

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

type fakeStore struct {
	mu        sync.Mutex
	parts     map[string][]byte
	completed []Part
	shedOnce  bool
}

func (f *fakeStore) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	q := r.URL.Query()
	switch {
	case r.Method == http.MethodPost && q.Has("uploads"):
		if !f.shedOnce {
			f.shedOnce = true
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, `<InitiateMultipartUploadResult><UploadId>u-1</UploadId></InitiateMultipartUploadResult>`)
	case r.Method == http.MethodPut:
		b, _ := io.ReadAll(r.Body)
		f.parts[q.Get("partNumber")] = b
		w.Header().Set("ETag", `"etag-`+q.Get("partNumber")+`"`)
	case r.Method == http.MethodPost && q.Get("uploadId") != "":
		var req completeRequest
		if err := xml.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		f.completed = req.Parts
	default:
		http.Error(w, "unexpected "+r.Method+" "+r.URL.String(), http.StatusBadRequest)
	}
}

func TestUpload(t *testing.T) {
	fs := &fakeStore{parts: map[string][]byte{}}
	srv := httptest.NewServer(fs)
	defer srv.Close()
	u := NewUploader(srv.URL + "/bucket")
	u.partSize = 1000
	data := bytes.Repeat([]byte("0123456789abcdefghijklmnopqrstuvwxy"), 2500/35+1)[:2500]
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := u.Upload(ctx, "k", bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	if len(fs.completed) != 3 {
		t.Fatalf("completed %d parts, want 3", len(fs.completed))
	}
	got := append(append(append([]byte(nil), fs.parts["1"]...), fs.parts["2"]...), fs.parts["3"]...)
	if p := fs.completed[2]; p.PartNumber != 3 || !strings.HasPrefix(p.ETag, `"etag-`) {
		t.Errorf("last part %d etag %q", p.PartNumber, p.ETag)
	}
	if !bytes.Equal(got, data) {
		t.Fatal("reassembled object differs")
	}
}
