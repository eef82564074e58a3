package queue

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// work handles messages until jobs is closed.
func (c *Consumer) work(ctx context.Context, jobs <-chan Message) {
	for m := range jobs {
		if err := c.Handle(ctx, m); err != nil {
			c.Log.Error("message failed; it will be redelivered", "id", m.ID, "err", err)
			continue
		}
		if err := c.delete(ctx, m); err != nil {
			c.Log.Error("delete failed; the message will be redelivered", "id", m.ID, "err", err)
		}
	}
}

// delete removes a handled message, retrying a few times: a message that
// is not deleted is handled twice.
func (c *Consumer) delete(ctx context.Context, m Message) error {
	// Finish deleting what was handled even while shutting down.
	dctx := context.Background()
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		if err = c.Queue.Delete(dctx, m.Receipt); err == nil {
			c.deletes.Record(nil)
			return nil
		}
		c.deletes.RecordFailure()
		if !c.deletes.Allow() {
			break
		}
		time.Sleep(200*time.Millisecond + rand.N(200*time.Millisecond))
	}
	return errors.Join(errors.New("queue: delete "+m.ID), err)
}
