package a

import (
	"io/fs"
	"os"
	"syscall"
	"time"
)

// statEINTR retries on EINTR, told by a type assertion on the error: on
// success the assertion fails and the loop returns. The file system is
// handed in (it may be remote): unknown work, its delay judged.
func statEINTR(fsys fs.FS, name string) (fi os.FileInfo, err error) {
	for i := 0; i < 10; i++ {
		fi, err = fs.Stat(fsys, name)
		if err, ok := err.(*os.PathError); ok && err.Err == syscall.EINTR {
			time.Sleep(time.Duration(i+1) * time.Millisecond) // want `backoff grows without jitter`
			continue
		}
		return
	}
	return
}

// The same on the local file system: local work hits nobody (SPEC,
// "Retries of local work").
func lstatEINTR(name string) (fi os.FileInfo, err error) {
	for i := 0; i < 10; i++ {
		fi, err = os.Lstat(name)
		if err, ok := err.(*os.PathError); ok && err.Err == syscall.EINTR {
			time.Sleep(time.Duration(i+1) * time.Millisecond)
			continue
		}
		return
	}
	return
}

// Look-alike: a reader that goes on while reads succeed and stops at
// the first path error is no retry.
func readAll(names []string, seen func(os.FileInfo)) {
	i := 0
	for {
		fi, err := os.Lstat(names[i%len(names)])
		if pe, ok := err.(*os.PathError); ok {
			_ = pe
			return
		}
		seen(fi)
		i++
		time.Sleep(time.Duration(i) * time.Millisecond)
	}
}
