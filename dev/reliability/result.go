package main

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Result is one scenario's row: what was injected, what clients were
// answered, and each check with what it found.
type Result struct {
	Name     string
	Injected string
	Answers  *Tally
	Checks   []Check
	Err      error // the scenario could not run to its checks
	Took     time.Duration
}

// Check is one assertion on values, with what was found.
type Check struct {
	What string
	OK   bool
	Got  string
}

// Check records an assertion.
func (r *Result) Check(ok bool, what, format string, args ...any) bool {
	r.Checks = append(r.Checks, Check{What: what, OK: ok, Got: fmt.Sprintf(format, args...)})
	return ok
}

// Passed: the scenario ran, made at least one check, and every check held.
func (r *Result) Passed() bool {
	if r.Err != nil || len(r.Checks) == 0 {
		return false
	}
	for _, c := range r.Checks {
		if !c.OK {
			return false
		}
	}
	return true
}

// Tally counts the answers clients got during a fault, by status code
// ("no answer" for a transport error).
type Tally struct {
	mu sync.Mutex
	n  map[string]int
}

func NewTally() *Tally { return &Tally{n: map[string]int{}} }

// Add counts one answer (status, or err when there was none).
func (t *Tally) Add(status int, err error) {
	key := strconv.Itoa(status)
	if err != nil {
		key = "no answer"
	}
	t.mu.Lock()
	t.n[key]++
	t.mu.Unlock()
}

// Count is the number of answers whose status satisfies ok.
func (t *Tally) Count(ok func(status int) bool) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	total := 0
	for k, v := range t.n {
		if s, err := strconv.Atoi(k); err == nil && ok(s) {
			total += v
		}
	}
	return total
}

// Total is the number of requests made.
func (t *Tally) Total() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	total := 0
	for _, v := range t.n {
		total += v
	}
	return total
}

// Others counts the answers outside allowed (transport errors included).
func (t *Tally) Others(allowed func(status int) bool) int {
	return t.Total() - t.Count(allowed)
}

func (t *Tally) String() string {
	if t == nil {
		return "—"
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.n) == 0 {
		return "—"
	}
	keys := make([]string, 0, len(t.n))
	for k := range t.n {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s×%d", k, t.n[k])
	}
	return strings.Join(parts, ", ")
}

// errNote is " (err)", or nothing without an error, for check messages.
func errNote(err error) string {
	if err == nil {
		return ""
	}
	return " (" + err.Error() + ")"
}

func is2xx(s int) bool      { return s >= 200 && s < 300 }
func is2xxOr5xx(s int) bool { return is2xx(s) || s >= 500 }

// Table renders the results as a markdown table.
func Table(results []*Result) string {
	var b strings.Builder
	b.WriteString("| # | scenario | injected | client answers | checks | result |\n|---|---|---|---|---|---|\n")
	for i, r := range results {
		var checks []string
		for _, c := range r.Checks {
			mark := "✓"
			if !c.OK {
				mark = "✗"
			}
			checks = append(checks, fmt.Sprintf("%s %s: %s", mark, c.What, c.Got))
		}
		if r.Err != nil {
			checks = append(checks, "✗ did not run to the end: "+r.Err.Error())
		}
		verdict := "pass"
		if !r.Passed() {
			verdict = "**FAIL**"
		}
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %s (%s) |\n", i+1, cell(r.Name), cell(r.Injected), cell(r.Answers.String()),
			cell(strings.Join(checks, "<br>")), verdict, r.Took.Round(time.Second))
	}
	return b.String()
}

// cell keeps a value inside its table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

// Markers delimit the generated part of docs/reliability.md.
const (
	beginMarker = "<!-- reliability:begin -->"
	endMarker   = "<!-- reliability:end -->"
)

// writeDoc replaces what lies between the markers of the file at path.
func writeDoc(path, generated string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(data)
	i, j := strings.Index(s, beginMarker), strings.Index(s, endMarker)
	if i < 0 || j < i {
		return errors.New(path + " lacks the reliability markers")
	}
	out := s[:i+len(beginMarker)] + "\n" + generated + s[j:]
	return os.WriteFile(path, []byte(out), 0o644)
}
