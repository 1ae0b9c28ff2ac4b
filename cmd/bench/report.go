package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

const (
	beginMarker = "<!-- bench:begin (written by make bench) -->"
	endMarker   = "<!-- bench:end -->"
	// The section make bench-large writes.
	beginLargeMarker = "<!-- bench-large:begin (written by make bench-large) -->"
	endLargeMarker   = "<!-- bench-large:end -->"
)

// report prints the results table and the headline line ("bench: ..."),
// and replaces the section of docs/performance.md between the markers
// begin and end with the same table.
func (b *bench) report(ctx context.Context, took time.Duration, begin, end string) error {
	var pg string
	_ = b.a.Store.Pool().QueryRow(ctx, `SHOW server_version`).Scan(&pg)
	temporal, _ := exec.Command(filepath.Join(b.root, "bin", "temporal"), "--version").Output()
	var sb strings.Builder
	fmt.Fprintf(&sb, "Run of %s on %d cores, %s memory; %s, PostgreSQL %s, %s; total %s.\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 MST"), runtime.NumCPU(), memTotal(), runtime.Version(), pg,
		strings.TrimSpace(string(temporal)), dur(took))
	sb.WriteString("| measurement | result |\n|---|---|\n")
	for _, r := range b.rows {
		fmt.Fprintf(&sb, "| %s | %s |\n", r[0], r[1])
	}
	fmt.Fprintf(&sb, "\nProfiles of the queue run: `bin/bench/queue.cpu.prof`, `bin/bench/queue.allocs.prof` "+
		"(`go tool pprof -top bin/bench/queue.cpu.prof`).\n\n`bench: %s`\n", strings.Join(b.headline, " "))
	table := sb.String()
	fmt.Println(table)
	if err := b.writeDoc(table, begin, end); err != nil {
		return err
	}
	fmt.Println("bench: " + strings.Join(b.headline, " "))
	return nil
}

func (b *bench) writeDoc(table, begin, end string) error {
	path := filepath.Join(b.root, "docs", "performance.md")
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(data)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		return errNoMarkers
	}
	s = s[:i+len(begin)] + "\n" + table + s[j:]
	return os.WriteFile(path, []byte(s), 0o644)
}

func memTotal() string {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var kb int64
		if _, err := fmt.Sscanf(sc.Text(), "MemTotal: %d kB", &kb); err == nil {
			return fmt.Sprintf("%.1f GiB", float64(kb)/(1<<20))
		}
	}
	return "unknown"
}
