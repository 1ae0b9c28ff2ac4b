// Package record holds only a test, TestRecordHistories, which records the
// workflow histories of branches the end-to-end tests do not reach in
// reasonable time into workflows/testdata/ (see its README). It lives apart
// from the workflows package so that the workflows' unit tests need none of
// the test harness.
package record
