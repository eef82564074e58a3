package k8s

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"

	"libs/remote"
)

var errConflict = errors.New("conflict")

// A poll whose condition answers "not done" on a failed call retries it
// at the poll's interval: the same delay every round.
func updateWithRetry(ctx context.Context) error {
	return wait.PollUntilContextCancel(ctx, time.Second, true, func(ctx context.Context) (bool, error) { // want `retrysleep: wait.PollUntilContextCancel calls again at the same interval after a failed call`
		if err := remote.Fetch(ctx); err != nil {
			if errors.Is(err, errConflict) {
				return false, nil
			}
			return false, err
		}
		return true, nil
	})
}

func listWithRetry(ctx context.Context, every time.Duration) error {
	return wait.PollUntilContextTimeout(ctx, every, time.Minute, true, func(ctx context.Context) (bool, error) { // want `retrysleep: wait.PollUntilContextTimeout calls again at the same interval after a failed call`
		err := remote.Fetch(ctx)
		if err != nil {
			return false, nil // log and try again
		}
		return true, nil
	})
}

// Look-alikes: polling a condition, stopping on a failure, or a condition
// the analysis cannot see.
func waitReady(ctx context.Context, ready func() bool) error {
	return wait.PollUntilContextCancel(ctx, time.Second, true, func(ctx context.Context) (bool, error) {
		if !ready() {
			return false, nil
		}
		return true, nil
	})
}

func stopOnFailure(ctx context.Context) error {
	return wait.PollUntilContextTimeout(ctx, time.Second, time.Minute, true, func(ctx context.Context) (bool, error) {
		if err := remote.Fetch(ctx); err != nil {
			return false, err
		}
		return true, nil
	})
}

func pollStatus(ctx context.Context) error {
	return wait.PollUntilContextTimeout(ctx, time.Second, time.Minute, true, func(ctx context.Context) (bool, error) {
		done, err := remote.Done(ctx)
		if err != nil {
			return false, err
		}
		if !done {
			return false, nil // not ready yet: polling
		}
		return true, nil
	})
}

func opaque(ctx context.Context, cond wait.ConditionWithContextFunc) error {
	return wait.PollUntilContextCancel(ctx, time.Second, true, cond)
}

// Look-alike: waiting for the object to appear (not found yet) is polling.
func waitCreated(ctx context.Context, get func(context.Context) error) error {
	return wait.PollUntilContextTimeout(ctx, time.Second, time.Minute, true, func(ctx context.Context) (bool, error) {
		err := get(ctx)
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		return true, nil
	})
}

func waitFile(ctx context.Context, path string) error {
	return wait.PollUntilContextCancel(ctx, time.Second, true, func(ctx context.Context) (bool, error) {
		if _, err := os.Stat(path); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return false, nil
			}
			return false, err
		}
		return true, nil
	})
}

// What falls through after the success exit is the failure.
func removeFinalizer(ctx context.Context) error {
	return wait.PollUntilContextTimeout(ctx, 2*time.Second, time.Minute, true, func(ctx context.Context) (bool, error) { // want `retrysleep: wait.PollUntilContextTimeout calls again at the same interval after a failed call`
		err := remote.Fetch(ctx)
		if err == nil {
			return true, nil
		}
		if !errors.Is(err, errConflict) {
			return false, err
		}
		return false, nil
	})
}
