package testmods

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// WaitForTools returns once the pending file is gone, and leaves the
// hurry file behind for CI to see.
func TestWaitForTools(t *testing.T) {
	pending := filepath.Join(t.TempDir(), "pending")
	if err := os.WriteFile(pending, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("RETRYLINT_TOOLS_PENDING", pending)
	done := make(chan struct{})
	go func() {
		WaitForTools(t)
		close(done)
	}()
	// The waiter asks for priority before the tools are ready.
	for i := 0; ; i++ {
		if _, err := os.Stat(pending + ".hurry"); err == nil {
			break
		}
		if i == 500 {
			t.Fatal("no hurry file while waiting")
		}
		time.Sleep(10 * time.Millisecond)
	}
	select {
	case <-done:
		t.Fatal("WaitForTools returned while the pending file exists")
	default:
	}
	if err := os.Remove(pending); err != nil {
		t.Fatal(err)
	}
	<-done
}

// Without the variable, or with the file gone, it does not wait.
func TestWaitForToolsNotPending(t *testing.T) {
	t.Setenv("RETRYLINT_TOOLS_PENDING", "")
	WaitForTools(t)
	t.Setenv("RETRYLINT_TOOLS_PENDING", filepath.Join(t.TempDir(), "gone"))
	WaitForTools(t)
}
