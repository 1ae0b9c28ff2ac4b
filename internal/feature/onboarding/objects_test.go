package onboarding_test

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/onboarding"
	"hackdesk/internal/platform/storage"
)

// memObjects is an object store in memory.
type memObjects map[string][]byte

func (m memObjects) Exists(_ context.Context, key string) (bool, error) {
	_, ok := m[key]
	return ok, nil
}

func (m memObjects) Put(_ context.Context, key, _ string, body io.Reader, _ int64) error {
	b, err := io.ReadAll(body)
	m[key] = b
	return err
}

func (m memObjects) Get(_ context.Context, key string) (io.ReadCloser, int64, error) {
	b, ok := m[key]
	if !ok {
		return nil, 0, storage.ErrNotFound
	}
	return io.NopCloser(bytes.NewReader(b)), int64(len(b)), nil
}

// TestWriteHeadshotZip assembles the archive from an object store that has
// lost one headshot: the others are there, stored, and missing.txt names
// the lost one.
func TestWriteHeadshotZip(t *testing.T) {
	t.Parallel()
	have, lost := "headshots/t/onboarding/a.jpg", "headshots/t/onboarding/b.png"
	objs := memObjects{have: []byte("jpeg bytes")}
	row := func(name string, key *string) db.ExecFormSubmissionListRow {
		return db.ExecFormSubmissionListRow{ProfileID: uuid.New(), DisplayName: name, HeadshotKey: key, SubmittedAt: time.Now()}
	}
	rows := []db.ExecFormSubmissionListRow{row("Ada", &have), row("Bob", nil), row("Cy", &lost)}
	var buf bytes.Buffer
	onboarding.WriteHeadshotZip(context.Background(), &buf, objs, slog.New(slog.DiscardHandler), rows)
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if len(zr.File) != 2 {
		t.Fatalf("%d entries, want the headshot and %s", len(zr.File), onboarding.MissingList)
	}
	read := func(f *zip.File) string {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		b, err := io.ReadAll(rc)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if f := zr.File[0]; f.Name != onboarding.ZipName("Ada", rows[0].ProfileID, have) || f.Method != zip.Store || read(f) != "jpeg bytes" {
		t.Errorf("entry %q (method %d)", f.Name, f.Method)
	}
	if f := zr.File[1]; f.Name != onboarding.MissingList || !strings.Contains(read(f), "Cy ("+rows[2].ProfileID.String()+"): "+lost) {
		t.Errorf("entry %q: %q", f.Name, read(f))
	}
}
