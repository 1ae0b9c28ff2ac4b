package workflows

import (
	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"hackdesk/activities"
)

// HeadshotCleanupInput names a headshot object that a form no longer
// points at (replaced by one of the other image type, or removed).
type HeadshotCleanupInput struct {
	TermID    uuid.UUID
	ProfileID uuid.UUID
	Kind      string
	Key       string
	ChangeID  uuid.UUID // the change that left the object behind
}

// HeadshotCleanupResult says what happened to the object.
type HeadshotCleanupResult = ObjectCleanupResult

// HeadshotCleanupID is the workflow ID for one change.
func HeadshotCleanupID(key string, changeID uuid.UUID) string {
	return "headshot-cleanup:" + key + ":" + changeID.String()
}

// HeadshotCleanupRequest starts the HeadshotCleanup workflow for a change.
func HeadshotCleanupRequest(in HeadshotCleanupInput) Request {
	return Request{ID: HeadshotCleanupID(in.Key, in.ChangeID), Type: "HeadshotCleanup", Input: in, Kind: KindTerm,
		Subject: in.TermID.String(), Summary: "Clean up headshot " + in.Key}
}

// HeadshotCleanup deletes the object unless the form points at it again
// (the same type uploaded again, or the change never committed). No signed
// links to headshots are handed out, so there is no grace period.
func HeadshotCleanup(ctx workflow.Context, in HeadshotCleanupInput) (HeadshotCleanupResult, error) {
	if in.Key == "" || in.ProfileID == uuid.Nil || in.TermID == uuid.Nil {
		return HeadshotCleanupResult{}, temporal.NewNonRetryableApplicationError("term, profile and key are required", "BadInput", nil)
	}
	var a *activities.HeadshotActivities
	return cleanUpObject(ctx, objectCleanup{name: "headshot cleanup", key: in.Key,
		activity: a.DeleteHeadshotIfUnused, input: activities.DeleteHeadshotInput{
			TermID: in.TermID, ProfileID: in.ProfileID, Kind: in.Kind, Key: in.Key}})
}
