package hiring

import "hackdesk/internal/platform/apperr"

// The errors hiring's transactions answer, with the code and message the
// API sends.
var (
	ErrNoTerm               = apperr.WithMessage(apperr.NotFound, "No term", "Create a term first")
	ErrPositionMissing      = apperr.New(apperr.NotFound, "Position not found")
	ErrSelectionMissing     = apperr.New(apperr.NotFound, "Selection not found")
	ErrQuestionMissing      = apperr.New(apperr.NotFound, "Question not found")
	ErrPositionInUse        = apperr.WithMessage(apperr.Conflict, "Position has selections", "A position someone chose cannot be deleted; close it instead")
	ErrPositionHasQuestions = apperr.WithMessage(apperr.Conflict, "Position has questions",
		"Move or delete the position's application questions first, or close it instead")
	ErrOfferAccepted = apperr.WithMessage(apperr.Conflict, "Offer already accepted", "This applicant has accepted another offer this term")
	ErrPresidentOnly = apperr.WithMessage(apperr.Forbidden, "Forbidden", "Only the President may set this status")
	ErrQuestionScope = apperr.WithMessage(apperr.Forbidden, "Forbidden",
		"A VP may only change questions whose positions are all of their subteam")
	ErrNotHiringTerm = apperr.WithMessage(apperr.Conflict, "Not the hiring term",
		"Only the hiring term (the term that starts last) can be finalized")
	ErrNothingToFinalize = apperr.WithMessage(apperr.Conflict, "Nothing to finalize",
		"Finalization needs at least one accepted offer")
)

// moveErr is the 409 of a move the status machine does not allow.
func moveErr(me *MoveError) error {
	return apperr.WithMessage(apperr.Conflict, "Invalid status change", me.Error())
}
