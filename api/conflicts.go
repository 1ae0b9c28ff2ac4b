package api

import (
	"github.com/google/uuid"

	"hackdesk/internal/feature/coi"
	"hackdesk/internal/platform/apperr"
)

// conflictOf applies the conflict-of-interest rule (package conflict) to
// the caller and an application: its applicant and team list.
func conflictOf(p *Principal, applicant uuid.UUID, teamMembers string) coi.Kind {
	return coi.Of(coi.Actor{ProfileID: p.ProfileID, Email: p.Email},
		coi.Application{ProfileID: applicant, TeamMembers: teamMembers})
}

// conflictErr is the 403 that refuses an action ("review", "decide on",
// "change the status of") for a conflict, naming it; nil for none.
func conflictErr(k coi.Kind, action string) error {
	if k == coi.None {
		return nil
	}
	return apperr.WithMessage(apperr.Forbidden, "Forbidden", k.Message(action))
}
