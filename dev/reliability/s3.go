package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// scenarioS3Down: versitygw is stopped while an applicant replaces their
// resume. The answer must be 503, and the previous resume must stay the
// current one and be downloadable once S3 is back.
func scenarioS3Down(ctx context.Context, s *Suite, r *Result) error {
	e, err := s.NewEnv(ctx, "s3down")
	if err != nil {
		return err
	}
	defer e.Close()
	api, err := e.StartAPI(ctx)
	if err != nil {
		return err
	}
	if _, err := e.StartWorker(ctx); err != nil {
		return err
	}
	c, _, err := applicant(ctx, e, api.URL)
	if err != nil {
		return err
	}
	first := pdf("first " + randomHex(8))
	if resp, err := c.Upload(ctx, "/api/applications/resumes", "first.pdf", first); err != nil || resp.Status != http.StatusOK {
		return fmt.Errorf("first upload: %d %v", resp.Status, err)
	}
	cleanups, err := e.Count(ctx, `SELECT count(*) FROM workflow_starts WHERE type = 'ResumeCleanup'`)
	if err != nil {
		return err
	}
	s.StopS3()
	resp, err := c.Upload(ctx, "/api/applications/resumes", "second.pdf", pdf("second"))
	r.Answers.Add(resp.Status, err)
	current, err := currentResume(ctx, c)
	r.Answers.Add(current.status, err)
	if err := s.StartS3(ctx); err != nil {
		return err
	}
	r.Injected = "versitygw stopped, a replacement resume uploaded, the resume read; versitygw started again on its data"
	r.Check(resp.Status == http.StatusServiceUnavailable, "the upload answered 503", "%d %s", resp.Status, clip(resp.Body))
	r.Check(current.status == http.StatusOK && strings.HasSuffix(current.Key, "/first.pdf"), "the previous resume still current",
		"GET resumes = %d, key %s", current.status, current.Key)
	after, err := currentResume(ctx, c)
	if err != nil {
		return err
	}
	got, status, err := download(ctx, after.URL)
	r.Check(err == nil && status == http.StatusOK && string(got) == string(first), "the previous resume downloadable after S3 is back",
		"GET signed link = %d, %d bytes, same bytes: %v", status, len(got), string(got) == string(first))
	n, err := e.Count(ctx, `SELECT count(*) FROM workflow_starts WHERE type = 'ResumeCleanup'`)
	if err != nil {
		return err
	}
	r.Check(n == cleanups, "no clean-up queued by the failed upload", "%d clean-ups before, %d after", cleanups, n)
	again, err := c.Upload(ctx, "/api/applications/resumes", "second.pdf", pdf("second"))
	r.Check(err == nil && again.Status == http.StatusOK, "uploads work again", "%d%s", again.Status, errNote(err))
	return nil
}

type resumeState struct {
	status   int
	Key, URL string
}

func currentResume(ctx context.Context, c Client) (resumeState, error) {
	resp, err := c.Do(ctx, http.MethodGet, "/api/applications/resumes", nil)
	if err != nil {
		return resumeState{}, err
	}
	st := resumeState{status: resp.Status}
	var out struct {
		Key *string `json:"key"`
		URL *string `json:"url"`
	}
	if resp.Status == http.StatusOK && resp.JSON(&out) == nil && out.Key != nil && out.URL != nil {
		st.Key, st.URL = *out.Key, *out.URL
	}
	return st, nil
}

func download(ctx context.Context, link string) ([]byte, int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, link, nil)
	if err != nil {
		return nil, 0, err
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return data, resp.StatusCode, err
}

// uploadResume uploads a small PDF as the caller's resume (its old one is
// then cleaned up by a ResumeCleanup workflow).
func uploadResume(ctx context.Context, c Client, name string) error {
	resp, err := c.Upload(ctx, "/api/applications/resumes", name, pdf(name))
	if err == nil && resp.Status != http.StatusOK {
		err = fmt.Errorf("upload %s = %d %s", name, resp.Status, clip(resp.Body))
	}
	return err
}
