package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/proto"

	"hackdesk/app"
	"hackdesk/dev/receipttest"
	"hackdesk/dev/testenv"
	"hackdesk/internal/platform/storage"
	"hackdesk/workflows"
)

// TestPIISweep runs the service's flows with known people (a sign-up, an
// application with a résumé named "Ada Lovelace CV.pdf", a review, a
// decision, a hiring finalization, a shop receipt, a broadcast, a Foundry
// launch, an erasure), then reads every workflow run's raw history from
// Temporal (no codec), and every workflow ID, summary and search
// attribute: none holds a person's email, name, phone or file name. After
// the erasure, every text, jsonb, bytea and array column of every table
// and every object key holds nothing of the erased person but the
// tombstone's id.
func TestPIISweep(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := testenv.Config(t)
	cfg.ErasureGrace = 2 * time.Second
	cfg.S3Bucket = "sweep-" + strings.ReplaceAll(uuid.NewString()[:8], "-", "")
	if err := storage.New(cfg).EnsureBucket(ctx); err != nil {
		t.Fatal(err)
	}
	a := testenv.App(t, cfg)
	anon := &client{t: t, base: a.URL()}

	const (
		adaEmail = "ada.lovelace@sweep.test"
		adaName  = "Ada Lovelace"
		adaPhone = "+1 (613) 555-0100"
		adaFile  = "Ada Lovelace CV.pdf"
		adaPW    = "analytical-engine-1843"
	)
	people := map[string]string{ // email → display name
		adaEmail:                     adaName,
		"charles.babbage@sweep.test": "Charles Babbage",
		"mary.somerville@sweep.test": "Mary Somerville",
		"alan.turing@sweep.test":     "Alan Turing",
		"hedy.lamarr@sweep.test":     "Hedy Lamarr",
		"grace.president@sweep.test": "Grace Brewster",
		"root.super@sweep.test":      "Rootly Superton",
	}

	// Staff, terms and the hiring round's positions.
	super := as(t, a, anon, account(t, a, "root.super@sweep.test", people["root.super@sweep.test"], "superadmin"))
	oldTerm := hiringTermVia(t, super, "2025-2026", "2025-09-01", "2026-08-31", true)
	newTerm := hiringTermVia(t, super, "2026-2027", "2026-09-01", "2027-08-31", false)
	presID := account(t, a, "grace.president@sweep.test", people["grace.president@sweep.test"], "admin")
	testenv.ExecRole(t, a.Store, presID, testenv.ExecRoleOpts{Position: "President", Subteam: "Board", Term: &oldTerm})
	pres := as(t, a, anon, presID)
	reviewer := as(t, a, anon, account(t, a, "charles.babbage@sweep.test", people["charles.babbage@sweep.test"], "admin"))
	devs := as(t, a, anon, account(t, a, "alan.turing@sweep.test", people["alan.turing@sweep.test"], "admin"))
	position := hiringPosition(t, pres, newTerm, "Developer", "Tech", "exec")

	// Ada signs up, joins, applies with her résumé.
	signup(t, a, anon, adaEmail, adaPW, adaName)
	ada := login(t, anon, adaEmail, adaPW)
	var profile struct {
		ID uuid.UUID `json:"id"`
	}
	ada.expect(http.StatusOK, "GET", "/api/profile", nil).JSON(t, &profile)
	ada.expect(http.StatusCreated, "POST", "/api/membership", nil)
	createApplication(t, ada, profile.ID)
	for _, step := range completeSteps {
		ada.expect(http.StatusOK, "PATCH", "/api/applications", step)
	}
	ada.expect(http.StatusOK, "PATCH", "/api/applications", map[string]any{"phone": adaPhone})
	if r := ada.upload(adaFile, pdfFile("Ada Lovelace, résumé")); r.Status != http.StatusOK && r.Status != http.StatusCreated {
		t.Fatalf("upload: %d %s", r.Status, r.Body)
	}
	// A second one: the first is cleaned up by ResumeCleanup, whose input
	// holds the old key (and so the file name).
	if r := ada.upload("Ada Lovelace CV final.pdf", pdfFile("Ada Lovelace, résumé v2")); r.Status != http.StatusOK && r.Status != http.StatusCreated {
		t.Fatalf("upload: %d %s", r.Status, r.Body)
	}
	var mine appJSON
	ada.expect(http.StatusOK, "POST", "/api/applications/submit", nil)
	ada.expect(http.StatusOK, "GET", "/api/applications", nil).JSON(t, &mine)

	// A review, a decision (an offer: RsvpDeadline and its emails).
	score(t, reviewer, mine.ID, http.StatusOK)
	super.expect(http.StatusOK, "POST", "/api/admin/applications/decisions", map[string]any{"application_ids": []uuid.UUID{mine.ID},
		"decision": "offer", "rsvp_deadline": time.Now().Add(72 * time.Hour).UTC().Format(time.RFC3339)})
	super.expect(http.StatusOK, "GET", "/api/admin/applications/"+mine.ID.String(), nil)

	// Hiring: Mary is hired, and the round finalized.
	mary := account(t, a, "mary.somerville@sweep.test", people["mary.somerville@sweep.test"], "member")
	hedy := account(t, a, "hedy.lamarr@sweep.test", people["hedy.lamarr@sweep.test"], "member")
	sel := applyFor(t, a, anon, mary, position)[position]
	for _, st := range []string{"wanted", "offer_sent", "accepted_offer"} {
		pres.expect(http.StatusOK, "PATCH", "/api/applications/hiring/selections/"+sel.String(), map[string]any{"status": st})
	}
	var fin struct {
		WorkflowID string `json:"workflow_id"`
	}
	pres.expect(http.StatusAccepted, "POST", "/api/applications/hiring/finalize",
		map[string]any{"term_id": newTerm, "all_hands_url": "https://cal.example.com/all-hands"}).JSON(t, &fin)

	// A shop receipt pays Ada's membership; Hedy joins unpaid.
	as(t, a, anon, hedy).expect(http.StatusCreated, "POST", "/api/membership", nil)
	raw := signedReceipt(t, receipttest.Sample{Email: adaEmail, TermName: "2025-2026", TransactionID: "TX-SWEEP1"})
	if r := postReceipt(anon, webhookForm(raw)); r.Status != http.StatusOK {
		t.Fatalf("receipt post: %d %s", r.Status, r.Body)
	}

	// A broadcast to the term's members, a Foundry launch.
	var bc struct {
		BroadcastID uuid.UUID `json:"broadcast_id"`
	}
	super.expect(http.StatusAccepted, "POST", "/api/admin/broadcasts", map[string]any{"subject": "Club news",
		"body": "See you at the meeting.", "audience": map[string]any{"kind": "members", "term_id": oldTerm}, "marketing": false}).JSON(t, &bc)
	l := launch(t, devs, map[string]any{"name": uniqueName("sweep-site"), "description": "the club site",
		"project_type": "nextjs", "database": "postgresql", "redis": false, "s3": false, "team_slug": "platform", "private": true})

	// Everything ends.
	awaitStarted(t, a, fin.WorkflowID)
	awaitStarted(t, a, workflows.ReceiptProcessingID(receipttest.DevShopDomain, "TX-SWEEP1"))
	bcWait(t, super, bc.BroadcastID)
	waitProject(t, devs, l.ProjectID)
	cleanupRuns(t, a, 1)

	// Ada deletes her account; after the grace, it is erased.
	ada.expect(http.StatusAccepted, "DELETE", "/api/me", map[string]string{"password": adaPW})
	if res := erasureResult(t, a, profile.ID, 1, 60*time.Second); res.Outcome != workflows.ErasureErased {
		t.Fatalf("erasure %+v", res)
	}

	// Every run of this app, read raw.
	needles := []string{adaPhone, "555-0100", adaFile, "Ada_Lovelace_CV", "Lovelace"}
	for email, name := range people {
		needles = append(needles, email, name)
	}
	types, hits := sweepTemporal(t, a, needles)
	for _, typ := range []string{"SendEmail", "ResumeCleanup", "RsvpDeadline", "HiringFinalization", "ReceiptProcessing",
		"Broadcast", "FoundryLaunch", "AccountErasure"} {
		if types[typ] == 0 {
			t.Errorf("no %s run was swept: the flows did not all run (%v)", typ, types)
		}
	}
	for _, h := range hits {
		t.Error(h)
	}
	t.Logf("swept runs by type: %v; personal values found: %d", types, len(hits))
	// The sweep can fail: the ids it is allowed to find, it finds.
	if _, canary := sweepTemporal(t, a, []string{profile.ID.String(), "TX-SWEEP1"}); len(canary) < 2 {
		t.Errorf("the sweep does not find ids that are there: %v", canary)
	}

	// The database and the bucket, after the erasure: nothing of Ada.
	adaNeedles := []string{adaEmail, adaName, "Lovelace", "555-0100", "Ada_Lovelace"}
	if hits := testenv.ScanDatabase(t, a.Store, adaNeedles...); len(hits) > 0 {
		t.Errorf("left of the erased person in the database:\n%s", strings.Join(hits, "\n"))
	}
	if hits := testenv.ScanDatabase(t, a.Store, "erased-"+profile.ID.String()); len(hits) == 0 {
		t.Error("the scan does not find the tombstone's address")
	}
	keys, err := a.Blob.List(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		for _, n := range adaNeedles {
			if strings.Contains(strings.ToLower(k), strings.ToLower(n)) {
				t.Errorf("object key %q holds %q", k, n)
			}
		}
		if strings.HasPrefix(k, profile.ID.String()+"/") {
			t.Errorf("object %q is left under the erased person's prefix", k)
		}
	}
}

// awaitStarted waits for a workflow to be started (through the outbox)
// and for its latest run to end.
func awaitStarted(t *testing.T, a *app.App, id string) {
	t.Helper()
	ctx := context.Background()
	testenv.Eventually(t, 30*time.Second, func() (bool, string) {
		_, err := a.Temporal.DescribeWorkflowExecution(ctx, id, "")
		return err == nil, id + ": " + errText(err)
	})
	cctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := a.Temporal.GetWorkflow(ctx, id, "").Get(cctx, nil); err != nil {
		t.Fatalf("%s: %v", id, err)
	}
}

// sweepTemporal reads every run on the app's task queue as the Temporal
// server stores it (the raw history service, no codec): each event's
// bytes, the workflow ID, the summary and the search attributes, and
// reports each needle found (case-insensitively), with the runs swept by
// type.
func sweepTemporal(t *testing.T, a *app.App, needles []string) (map[string]int, []string) {
	t.Helper()
	ctx := context.Background()
	svc := a.Temporal.WorkflowService()
	ns := a.Config.TemporalNamespace
	var hits []string
	find := func(where string, b []byte) {
		lower := bytes.ToLower(b)
		for _, n := range needles {
			if bytes.Contains(lower, bytes.ToLower([]byte(n))) {
				hits = append(hits, fmt.Sprintf("%s holds %q", where, n))
			}
		}
	}
	runs := map[string]int{}
	var token []byte
	for {
		resp, err := svc.ListWorkflowExecutions(ctx, &workflowservice.ListWorkflowExecutionsRequest{Namespace: ns,
			Query: fmt.Sprintf("TaskQueue = '%s'", a.Config.TaskQueue), NextPageToken: token, PageSize: 200})
		if err != nil {
			t.Fatal(err)
		}
		for _, ex := range resp.Executions {
			runs[ex.Type.GetName()]++
			id := ex.Execution.WorkflowId
			find("workflow ID "+id, []byte(id))
			attrs, err := proto.Marshal(ex.SearchAttributes)
			if err != nil {
				t.Fatal(err)
			}
			find("search attributes of "+id, attrs)
			desc, err := svc.DescribeWorkflowExecution(ctx, &workflowservice.DescribeWorkflowExecutionRequest{Namespace: ns, Execution: ex.Execution})
			if err != nil {
				t.Fatal(err)
			}
			meta, err := proto.Marshal(desc.GetExecutionConfig().GetUserMetadata())
			if err != nil {
				t.Fatal(err)
			}
			find("summary of "+id, meta)
			var page []byte
			for {
				h, err := svc.GetWorkflowExecutionHistory(ctx, &workflowservice.GetWorkflowExecutionHistoryRequest{Namespace: ns,
					Execution: &commonpb.WorkflowExecution{WorkflowId: id, RunId: ex.Execution.RunId}, NextPageToken: page})
				if err != nil {
					t.Fatal(err)
				}
				for _, ev := range h.GetHistory().GetEvents() {
					b, err := proto.Marshal(ev)
					if err != nil {
						t.Fatal(err)
					}
					find(fmt.Sprintf("history of %s (event %d, %s)", id, ev.EventId, ev.EventType), b)
				}
				if page = h.NextPageToken; len(page) == 0 {
					break
				}
			}
		}
		if token = resp.NextPageToken; len(token) == 0 {
			break
		}
	}
	return runs, hits
}
