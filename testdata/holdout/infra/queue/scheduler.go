package queue

import (
	"context"
	"log"
	"math/rand/v2"
	"time"
)

// Task is a job run every Every.
type Task struct {
	Name  string
	Every time.Duration
	Run   func(context.Context) error

	next time.Time
}

// Scheduler starts tasks when they are due.
type Scheduler struct {
	tick  time.Duration
	tasks []*Task
	add   chan *Task
}

// NewScheduler checks for due tasks every tick.
func NewScheduler(tick time.Duration) *Scheduler {
	return &Scheduler{tick: tick, add: make(chan *Task)}
}

// Add registers t; it is safe to call while Run is running.
func (s *Scheduler) Add(t *Task) { s.add <- t }

// Run drives the schedule until ctx ends.
func (s *Scheduler) Run(ctx context.Context) {
	t := time.NewTicker(s.tick)
	defer t.Stop()
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case task := <-s.add:
			task.next = time.Now().Add(task.Every)
			s.tasks = append(s.tasks, task)
		case now := <-t.C:
			for _, task := range s.tasks {
				if now.Before(task.next) {
					continue
				}
				task.next = now.Add(task.Every)
				go s.runTask(ctx, task)
			}
		}
	}
	log.Printf("queue: scheduler stopped with %d tasks", len(s.tasks))
}

// runTask runs one due task, with two more tries if it fails: the next
// tick is too far away to wait for.
func (s *Scheduler) runTask(ctx context.Context, task *Task) {
	for attempt := 1; attempt <= 3; attempt++ {
		err := task.Run(ctx)
		if err == nil {
			return
		}
		log.Printf("queue: task %s attempt %d: %v", task.Name, attempt, err)
		time.Sleep(time.Second + rand.N(time.Second))
	}
}
