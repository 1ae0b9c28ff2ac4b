package api

import (
	"github.com/google/uuid"

	"hackdesk/apperr"
	"hackdesk/conflict"
)

// conflictOf applies the conflict-of-interest rule (package conflict) to
// the caller and an application: its applicant and team list.
func conflictOf(p *Principal, applicant uuid.UUID, teamMembers string) conflict.Kind {
	return conflict.Of(conflict.Actor{ProfileID: p.ProfileID, Email: p.Email},
		conflict.Application{ProfileID: applicant, TeamMembers: teamMembers})
}

// conflictErr is the 403 that refuses an action ("review", "decide on",
// "change the status of") for a conflict, naming it; nil for none.
func conflictErr(k conflict.Kind, action string) error {
	if k == conflict.None {
		return nil
	}
	return apperr.WithMessage(apperr.Forbidden, "Forbidden", k.Message(action))
}
