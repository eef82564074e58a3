package dbx

import (
	"context"
	"database/sql"
	"os"
	"testing"
	"time"
)

// openTestDB connects to the database the CI job starts next to the tests;
// the container can take a while to accept connections.
func openTestDB(t *testing.T) *sql.DB {
	t.Helper()
	dsn := os.Getenv("TEST_DATABASE_URL")
	if dsn == "" {
		t.Skip("TEST_DATABASE_URL not set")
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	for range 30 {
		if err = db.Ping(); err == nil {
			return db
		}
		time.Sleep(time.Second)
	}
	t.Fatalf("database never came up: %v", err)
	return nil
}

func TestMigrateEmpty(t *testing.T) {
	db := openTestDB(t)
	defer db.Close()
	if err := Migrate(context.Background(), db, nil); err != nil {
		t.Fatal(err)
	}
}
