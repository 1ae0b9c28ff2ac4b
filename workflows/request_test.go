package workflows_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/workflows"
)

// TestRequestsShowNoPersonalData: everyone who can open the Temporal UI
// sees every run's search attributes and summary, unencrypted, so they
// hold ids and keys only: no email address, and no free text that may name
// someone (a broadcast's subject line).
func TestRequestsShowNoPersonalData(t *testing.T) {
	t.Parallel()
	to, subject := "ada.lovelace@example.com", "Congratulations, Ada Lovelace"
	id := uuid.New()
	now := time.Now()
	windows := workflows.TermWindows{OnboardingOpensAt: &now, OnboardingClosesAt: &now}
	for _, req := range []workflows.Request{
		workflows.SendEmailRequest(workflows.SendEmailInput{Key: "offer:" + id.String(), Kind: "offer", To: to,
			Data: map[string]string{"name": "Ada Lovelace"}}),
		workflows.ResumeCleanupRequest(workflows.ResumeCleanupInput{ProfileID: id, OldKey: id.String() + "/cv.pdf", UploadID: id}),
		workflows.RsvpDeadlineRequest(workflows.RsvpDeadlineInput{BatchID: id, Deadline: now}),
		workflows.BroadcastRequest(workflows.BroadcastInput{BroadcastID: id, Subject: subject, Total: 3}),
		workflows.TermWindowRequest(workflows.TermWindowInput{TermID: id, TermName: "2026-2027", Windows: windows}),
		workflows.TermWindowSignalRequest(workflows.TermWindowInput{TermID: id, TermName: "2026-2027", Windows: windows}),
		workflows.HeadshotCleanupRequest(workflows.HeadshotCleanupInput{TermID: id, ProfileID: id, Kind: "onboarding",
			Key: "headshots/" + id.String() + ".jpg", ChangeID: id}),
		workflows.HiringFinalizationRequest(workflows.HiringFinalizationInput{TermID: id, TermName: "2026-2027"}),
		workflows.ReceiptProcessingRequest(workflows.ReceiptProcessingInput{ReceiptID: id, ShopDomain: "shop.test", TransactionID: "TX-1"}),
		workflows.FoundryLaunchRequest(workflows.FoundryLaunchInput{ProjectID: id, Name: "web", ProjectType: "nextjs"}),
	} {
		t.Run(req.Type, func(t *testing.T) {
			t.Parallel()
			for field, v := range map[string]string{"subject": req.Subject, "summary": req.Summary} {
				if v == "" {
					t.Errorf("%s %s is empty", req.Type, field)
				}
				if strings.Contains(v, "@") || strings.Contains(v, "Lovelace") {
					t.Errorf("%s %s %q names a person", req.Type, field, v)
				}
			}
		})
	}
	if got := workflows.SendEmailRequest(workflows.SendEmailInput{Key: "k1", Kind: "notice", To: to}).Subject; got != "k1" {
		t.Errorf("SendEmail subject %q, want its idempotency key", got)
	}
}
