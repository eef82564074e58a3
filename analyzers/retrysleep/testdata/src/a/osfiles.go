package a

import (
	"errors"
	"io/fs"
	"os"
	"time"
)

// The os classifiers report false of a nil error: a success leaves. The
// files are read through an fs.FS the caller hands in, which may be
// anything (a remote store): unknown work, whose delay is judged.

func waitForFile(fsys fs.FS, name string) ([]byte, error) {
	for i := 0; i < 50; i++ {
		data, err := fs.ReadFile(fsys, name)
		if os.IsNotExist(err) {
			time.Sleep(100 * time.Millisecond) // want `retry waits a fixed delay`
			continue
		}
		return data, err
	}
	return nil, errors.New("no file")
}

func waitForFileUntil(fsys fs.FS, name string, maxWait time.Duration) error {
	var err error
	for start := time.Now(); ; {
		_, err = fs.ReadFile(fsys, name)
		if os.IsNotExist(err) && time.Since(start) < maxWait {
			time.Sleep(100 * time.Millisecond) // want `retry waits a fixed delay`
			continue
		}
		break
	}
	return err
}

// Look-alike: a permission error leaves; the loop goes round only on
// success, over a list of files.
func firstReadable(names []string) []byte {
	for _, n := range names {
		data, err := os.ReadFile(n)
		if os.IsPermission(err) {
			continue
		}
		if err == nil {
			return data
		}
	}
	return nil
}

// The file may be there but empty (written by another process): the
// content decides on success, and a missing file is retried.
func waitForContent(fsys fs.FS, name string, maxWait time.Duration) ([]byte, error) {
	var data []byte
	var err error
	for start := time.Now(); ; {
		data, err = fs.ReadFile(fsys, name)
		if (os.IsNotExist(err) || err == nil && len(data) == 0) && time.Since(start) < maxWait {
			time.Sleep(100 * time.Millisecond) // want `retry waits a fixed delay`
			continue
		}
		break
	}
	return data, err
}

// Look-alike: a poll whose failure leaves; only content goes round.
func pollContent(name string) ([]byte, error) {
	for i := 0; i < 50; i++ {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		if len(data) > 0 {
			return data, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, errors.New("empty")
}

// The same waits on the local file system: local work, nobody is hit by
// their lockstep (SPEC, "Retries of local work").

func waitForLocalFile(name string) ([]byte, error) {
	for i := 0; i < 50; i++ {
		data, err := os.ReadFile(name)
		if os.IsNotExist(err) {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		return data, err
	}
	return nil, errors.New("no file")
}

func waitForLocalContent(name string, maxWait time.Duration) ([]byte, error) {
	var data []byte
	var err error
	for start := time.Now(); ; {
		data, err = os.ReadFile(name)
		if (os.IsNotExist(err) || err == nil && len(data) == 0) && time.Since(start) < maxWait {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		break
	}
	return data, err
}
