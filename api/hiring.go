package api

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"hackdesk/apperr"
	"hackdesk/db"
	"hackdesk/hiring"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

var (
	errNoTerm               = apperr.WithMessage(apperr.NotFound, "No term", "Create a term first")
	errPositionMissing      = apperr.New(apperr.NotFound, "Position not found")
	errSelectionMissing     = apperr.New(apperr.NotFound, "Selection not found")
	errPositionInUse        = apperr.WithMessage(apperr.Conflict, "Position has selections", "A position someone chose cannot be deleted; close it instead")
	errPositionHasQuestions = apperr.WithMessage(apperr.Conflict, "Position has questions",
		"Move or delete the position's application questions first, or close it instead")
	errOfferAccepted = apperr.WithMessage(apperr.Conflict, "Offer already accepted", "This applicant has accepted another offer this term")
	errPresidentOnly = apperr.WithMessage(apperr.Forbidden, "Forbidden", "Only the President may set this status")
	errNotHiringTerm = apperr.WithMessage(apperr.Conflict, "Not the hiring term",
		"Only the hiring term (the term that starts last) can be finalized")
	errNothingToFinalize = apperr.WithMessage(apperr.Conflict, "Nothing to finalize",
		"Finalization needs at least one accepted offer")
)

// positionJSON is a position as the API shows it.
type positionJSON struct {
	ID          uuid.UUID `json:"id"`
	TermID      uuid.UUID `json:"term_id"`
	Title       string    `json:"title"`
	Subteam     string    `json:"subteam"`
	Grants      string    `json:"grants"`
	Description string    `json:"description"`
	Open        bool      `json:"open"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

func toPositionJSON(p db.Position) positionJSON {
	return positionJSON{ID: p.ID, TermID: p.TermID, Title: p.Title, Subteam: p.Subteam, Grants: p.Grants,
		Description: p.Description, Open: p.Open, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt}
}

// positionRef is the short form of a position inside a selection.
type positionRef struct {
	ID      uuid.UUID `json:"id"`
	Title   string    `json:"title"`
	Subteam string    `json:"subteam"`
}

// hiringTerm resolves ?term_id= (400 when malformed, 404 when unknown) or,
// without it, the hiring term: the one that starts last.
func hiringTerm(ctx context.Context, q *db.Queries, r *http.Request) (db.Term, error) {
	if v := r.URL.Query().Get("term_id"); v != "" {
		id, err := uuid.Parse(v)
		if err != nil {
			return db.Term{}, apperr.ValidationFailed(apperr.Fields{"term_id": "must be a UUID"})
		}
		t, err := q.TermGet(ctx, id)
		if errors.Is(err, db.ErrNotFound) {
			return t, errTermMissing
		}
		return t, err
	}
	t, err := q.TermHiring(ctx)
	if errors.Is(err, db.ErrNotFound) {
		return t, errNoTerm
	}
	return t, err
}

// callerScope is the hiring scope and role of the caller: a superadmin or
// President sees every subteam, a VP their own. The policy gate has
// already let only these through.
func callerScope(p *Principal) (hiring.Scope, hiring.Role) {
	scope, role, ok := hiring.ScopeOf(p.Role == "superadmin", p.ExecPosition, p.ExecSubteam)
	if !ok {
		return hiring.Scope{Subteam: "\x00none"}, hiring.VP // sees nothing
	}
	return scope, role
}

// listPositions is GET /api/positions?term_id= (public): the open
// positions of the term, the hiring term by default. A President (or
// superadmin) also sees the closed ones.
func (s *Server) listPositions(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	t, err := hiringTerm(ctx, s.store.Queries, r)
	if errors.Is(err, errNoTerm) {
		writeJSON(w, http.StatusOK, map[string]any{"positions": []positionJSON{}})
		return nil
	}
	if err != nil {
		return err
	}
	all := false
	if p := principalFrom(ctx); p != nil {
		all = p.Allows(President)
	}
	rows, err := s.store.PositionList(ctx, db.PositionListParams{TermID: t.ID, IncludeClosed: all})
	if err != nil {
		return err
	}
	out := make([]positionJSON, len(rows))
	for i, p := range rows {
		out[i] = toPositionJSON(p)
	}
	writeJSON(w, http.StatusOK, map[string]any{"positions": out})
	return nil
}

// positionBody is a position create (title, subteam and grants required)
// or patch.
type positionBody struct {
	TermID      field[string] `json:"term_id"`
	Title       field[string] `json:"title"`
	Subteam     field[string] `json:"subteam"`
	Grants      field[string] `json:"grants"`
	Description field[string] `json:"description"`
	Open        field[bool]   `json:"open"`

	create bool
}

func (b *positionBody) Validate() apperr.Fields {
	f := apperr.Fields{}
	required := map[string]field[string]{"title": b.Title, "subteam": b.Subteam, "grants": b.Grants}
	for name, fl := range required {
		switch {
		case b.create && !fl.Set, fl.Set && fl.Null:
			f.Add(name, "is required")
		}
	}
	if !b.create && b.TermID.Set {
		f.Add("term_id", "cannot be changed")
	}
	if b.create && b.TermID.Set && !b.TermID.Null {
		if _, err := uuid.Parse(b.TermID.V); err != nil {
			f.Add("term_id", "must be a UUID")
		}
	}
	if b.Title.Set && !b.Title.Null {
		if n := len([]rune(strings.TrimSpace(b.Title.V))); n < 1 || n > 200 {
			f.Add("title", "must be 1 to 200 characters")
		}
	}
	if b.Subteam.Set && !b.Subteam.Null {
		if n := len([]rune(strings.TrimSpace(b.Subteam.V))); n < 1 || n > 100 {
			f.Add("subteam", "must be 1 to 100 characters")
		}
	}
	if b.Grants.Set && !b.Grants.Null && !hiring.Grant(b.Grants.V).Valid() {
		f.Add("grants", "must be one of "+joinSet(hiring.Grants()))
	}
	if b.Description.Set && !b.Description.Null && len([]rune(b.Description.V)) > 5000 {
		f.Add("description", "must be at most 5000 characters")
	}
	if b.Open.Set && b.Open.Null {
		f.Add("open", "must be true or false")
	}
	return f
}

func (b *positionBody) apply(p *db.Position) {
	if b.Title.Set {
		p.Title = strings.TrimSpace(b.Title.V)
	}
	if b.Subteam.Set {
		p.Subteam = strings.TrimSpace(b.Subteam.V)
	}
	if b.Grants.Set {
		p.Grants = b.Grants.V
	}
	if b.Description.Set {
		p.Description = strings.TrimSpace(b.Description.V) // null clears
	}
	if b.Open.Set {
		p.Open = b.Open.V
	}
}

// createPosition is POST /api/positions (President): a position of the
// given term, the hiring term by default.
func (s *Server) createPosition(w http.ResponseWriter, r *http.Request) error {
	body := positionBody{create: true}
	if err := decode(w, r, &body); err != nil {
		return err
	}
	ctx := r.Context()
	var termID uuid.UUID
	if body.TermID.Set && !body.TermID.Null {
		termID = uuid.MustParse(body.TermID.V)
		if _, err := s.store.TermGet(ctx, termID); errors.Is(err, db.ErrNotFound) {
			return apperr.ValidationFailed(apperr.Fields{"term_id": "no such term"})
		} else if err != nil {
			return err
		}
	} else {
		t, err := s.store.TermHiring(ctx)
		if errors.Is(err, db.ErrNotFound) {
			return errNoTerm
		}
		if err != nil {
			return err
		}
		termID = t.ID
	}
	p := db.Position{Open: true}
	body.apply(&p)
	out, err := s.store.PositionInsert(ctx, db.PositionInsertParams{TermID: termID, Title: p.Title, Subteam: p.Subteam,
		Grants: p.Grants, Description: p.Description, Open: p.Open})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, map[string]any{"position": toPositionJSON(out)})
	return nil
}

// patchPosition is PATCH /api/positions/{id} (President).
func (s *Server) patchPosition(w http.ResponseWriter, r *http.Request) error {
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return errPositionMissing
	}
	var body positionBody
	if err := decode(w, r, &body); err != nil {
		return err
	}
	ctx := r.Context()
	var out db.Position
	err = s.store.InTx(ctx, func(q *db.Queries) error {
		p, err := q.PositionLock(ctx, id)
		if errors.Is(err, db.ErrNotFound) {
			return errPositionMissing
		}
		if err != nil {
			return err
		}
		body.apply(&p)
		out, err = q.PositionUpdate(ctx, db.PositionUpdateParams{ID: id, Title: p.Title, Subteam: p.Subteam,
			Grants: p.Grants, Description: p.Description, Open: p.Open})
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"position": toPositionJSON(out)})
	return nil
}

// deletePosition is DELETE /api/positions/{id} (President). A position
// someone chose, or one with application questions, is kept (409).
func (s *Server) deletePosition(w http.ResponseWriter, r *http.Request) error {
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return errPositionMissing
	}
	ctx := r.Context()
	err = s.store.InTx(ctx, func(q *db.Queries) error {
		if _, err := q.PositionLock(ctx, id); errors.Is(err, db.ErrNotFound) {
			return errPositionMissing
		} else if err != nil {
			return err
		}
		n, err := q.PositionDelete(ctx, id)
		var ce *db.ConstraintError
		if errors.As(err, &ce) && ce.Constraint == "position_questions_position_id_fkey" {
			return errPositionHasQuestions
		}
		if err != nil {
			return err
		}
		if n == 0 {
			return errPositionInUse
		}
		return nil
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true})
	return nil
}

// selectionJSON is one selection after a status change.
type selectionJSON struct {
	ID            uuid.UUID   `json:"id"`
	ApplicationID uuid.UUID   `json:"application_id"`
	Position      positionRef `json:"position"`
	Status        string      `json:"status"`
	UpdatedAt     time.Time   `json:"updated_at"`
}

type answerJSON struct {
	QuestionID string `json:"question_id"`
	Prompt     string `json:"prompt"`
	Answer     string `json:"answer"`
}

type reviewItemJSON struct {
	SelectionID   uuid.UUID    `json:"selection_id"`
	ApplicationID uuid.UUID    `json:"application_id"`
	Status        string       `json:"status"`
	Position      positionRef  `json:"position"`
	Applicant     applicantRef `json:"applicant"`
	Answers       []answerJSON `json:"answers"`
	UpdatedAt     time.Time    `json:"updated_at"`
}

type applicantRef struct {
	ProfileID   uuid.UUID `json:"profile_id"`
	DisplayName *string   `json:"display_name"`
	Email       string    `json:"email"`
}

// The application form's two fixed written answers come first in a review
// item's answers, under their field names; the question-bank answers
// follow under their question ids.
var formQuestions = []struct{ id, prompt string }{
	{"q1_answer", "Question 1"},
	{"q2_answer", "Question 2"},
}

// listReview is GET /api/applications/review (VP): the hiring term's
// selections in the caller's scope.
func (s *Server) listReview(w http.ResponseWriter, r *http.Request) error {
	f := apperr.Fields{}
	pg := parsePage(r, f)
	status := optional(r, "status")
	if status != nil && !hiring.Status(*status).Valid() {
		f.Add("status", "must be one of "+joinSet(hiring.Statuses()))
	}
	var positionID *uuid.UUID
	if v := optional(r, "position_id"); v != nil {
		id, err := uuid.Parse(*v)
		if err != nil {
			f.Add("position_id", "must be a UUID")
		}
		positionID = &id
	}
	q := optional(r, "q")
	if q != nil {
		v := strings.TrimSpace(*q)
		if len(v) > 200 {
			f.Add("q", "must be at most 200 characters")
		}
		q = &v
		if v == "" {
			q = nil
		}
	}
	if err := f.Err(); err != nil {
		return err
	}
	ctx := r.Context()
	t, err := hiringTerm(ctx, s.store.Queries, r)
	if errors.Is(err, errNoTerm) {
		writeJSON(w, http.StatusOK, map[string]any{"items": []reviewItemJSON{}, "total": 0, "page": pg.Number, "page_size": pg.Size})
		return nil
	}
	if err != nil {
		return err
	}
	scope, _ := callerScope(principalFrom(ctx))
	var subteam *string
	if !scope.All {
		subteam = &scope.Subteam
	}
	params := db.SelectionReviewListParams{TermID: t.ID, Subteam: subteam,
		Status: status, PositionID: positionID, Q: q, MaxRows: pg.Size, Skip: pg.offset()}
	rows, err := s.store.SelectionReviewList(ctx, params)
	if err != nil {
		return err
	}
	var total int64
	if len(rows) > 0 {
		total = rows[0].Total
	} else if params.Skip > 0 {
		// A page past the end has no row to carry the total: count from
		// the first row instead.
		params.MaxRows, params.Skip = 1, 0
		first, err := s.store.SelectionReviewList(ctx, params)
		if err != nil {
			return err
		}
		if len(first) > 0 {
			total = first[0].Total
		}
	}
	appIDs := make([]uuid.UUID, len(rows))
	for i, row := range rows {
		appIDs[i] = row.ApplicationID
	}
	bank, err := answersOf(ctx, s.store.Queries, appIDs...)
	if err != nil {
		return err
	}
	items := make([]reviewItemJSON, len(rows))
	for i, row := range rows {
		answers := []answerJSON{}
		for j, a := range []*string{row.Q1Answer, row.Q2Answer} {
			if a != nil && *a != "" {
				answers = append(answers, answerJSON{QuestionID: formQuestions[j].id, Prompt: formQuestions[j].prompt, Answer: *a})
			}
		}
		// Then the question-bank answers that concern this position: the
		// general questions' and this position's own.
		for _, a := range bank[row.ApplicationID] {
			if len(a.PositionIds) == 0 || slices.Contains(a.PositionIds, row.PositionID) {
				answers = append(answers, answerJSON{QuestionID: a.QuestionID.String(), Prompt: a.Prompt, Answer: a.Answer})
			}
		}
		items[i] = reviewItemJSON{SelectionID: row.ID, ApplicationID: row.ApplicationID, Status: row.Status,
			Position:  positionRef{ID: row.PositionID, Title: row.PositionTitle, Subteam: row.PositionSubteam},
			Applicant: applicantRef{ProfileID: row.ProfileID, DisplayName: row.DisplayName, Email: row.Email},
			Answers:   answers, UpdatedAt: row.UpdatedAt}
	}
	writeJSON(w, http.StatusOK, map[string]any{"items": items, "total": total, "page": pg.Number, "page_size": pg.Size})
	return nil
}

type statusBody struct {
	Status hiring.Status `json:"status"`
}

func (b *statusBody) Validate() apperr.Fields {
	f := apperr.Fields{}
	if !b.Status.Valid() {
		f.Add("status", "must be one of "+joinSet(hiring.Statuses()))
	}
	return f
}

// patchSelection is PATCH /api/applications/review/{selection_id} (VP)
// and PATCH /api/applications/hiring/selections/{id} (President): one
// status change, checked in order scope (404), conflict of interest (403:
// nobody moves their own selection or one whose application lists them as
// a team member), role (403), move (409).
// The same status again changes nothing; a change is recorded in
// selection_events, and an offer or a rejection emails the applicant once
// the transaction commits.
func (s *Server) patchSelection(param string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := uuid.Parse(chi.URLParam(r, param))
		if err != nil {
			return errSelectionMissing
		}
		var body statusBody
		if err := decode(w, r, &body); err != nil {
			return err
		}
		ctx := r.Context()
		p := principalFrom(ctx)
		scope, role := callerScope(p)
		var out selectionJSON
		err = s.store.InTx(ctx, func(q *db.Queries) error {
			sel, err := q.SelectionLock(ctx, id)
			if errors.Is(err, db.ErrNotFound) {
				return errSelectionMissing
			}
			if err != nil {
				return err
			}
			if !scope.Covers(sel.PositionSubteam) {
				return errSelectionMissing
			}
			if err := conflictErr(conflictOf(p, sel.ProfileID, sel.TeamMembers), "change the status of"); err != nil {
				return err
			}
			from := hiring.Status(sel.Status)
			var me *hiring.MoveError
			switch err := hiring.CanMove(role, from, body.Status); {
			case errors.Is(err, hiring.ErrRole):
				return errPresidentOnly
			case errors.As(err, &me):
				return apperr.WithMessage(apperr.Conflict, "Invalid status change", me.Error())
			case err != nil:
				return err
			}
			out = selectionJSON{ID: sel.ID, ApplicationID: sel.ApplicationID, Status: sel.Status, UpdatedAt: sel.UpdatedAt,
				Position: positionRef{ID: sel.PositionID, Title: sel.PositionTitle, Subteam: sel.PositionSubteam}}
			if from == body.Status {
				return nil
			}
			updated, err := q.SelectionSetStatus(ctx, db.SelectionSetStatusParams{ID: id, Status: string(body.Status), UpdatedBy: &p.ProfileID})
			if errors.Is(err, db.ErrConflict) {
				return errOfferAccepted
			}
			if err != nil {
				return err
			}
			out.Status, out.UpdatedAt = updated.Status, updated.UpdatedAt
			if err := q.SelectionEventInsert(ctx, db.SelectionEventInsertParams{SelectionID: id, ActorID: &p.ProfileID,
				FromStatus: string(from), ToStatus: string(body.Status)}); err != nil {
				return err
			}
			if !body.Status.Emails() {
				return nil
			}
			kind := "hiring_offer"
			if body.Status == hiring.RejectionSent {
				kind = "hiring_rejection"
			}
			return sendEmail(ctx, q, "selection:"+id.String()+":"+string(body.Status), kind, sel.ApplicantEmail,
				map[string]string{"name": sel.ApplicantName, "position": sel.PositionTitle, "term": sel.TermName})
		})
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, map[string]any{"selection": out})
		return nil
	}
}

type hiringSelectionJSON struct {
	ID        uuid.UUID   `json:"id"`
	Position  positionRef `json:"position"`
	Status    string      `json:"status"`
	UpdatedAt time.Time   `json:"updated_at"`
}

type hiringApplicantJSON struct {
	ApplicationID uuid.UUID             `json:"application_id"`
	ProfileID     uuid.UUID             `json:"profile_id"`
	DisplayName   *string               `json:"display_name"`
	Email         string                `json:"email"`
	Selections    []hiringSelectionJSON `json:"selections"`
}

// hiringBoard is GET /api/applications/hiring?term_id= (President): every
// applicant of the term with their selections.
func (s *Server) hiringBoard(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	t, err := hiringTerm(ctx, s.store.Queries, r)
	if err != nil {
		return err
	}
	rows, err := s.store.SelectionHiringList(ctx, t.ID)
	if err != nil {
		return err
	}
	out := []hiringApplicantJSON{}
	for _, row := range rows {
		if n := len(out); n == 0 || out[n-1].ApplicationID != row.ApplicationID {
			out = append(out, hiringApplicantJSON{ApplicationID: row.ApplicationID, ProfileID: row.ProfileID,
				DisplayName: row.DisplayName, Email: row.Email, Selections: []hiringSelectionJSON{}})
		}
		a := &out[len(out)-1]
		a.Selections = append(a.Selections, hiringSelectionJSON{ID: row.ID, Status: row.Status, UpdatedAt: row.UpdatedAt,
			Position: positionRef{ID: row.PositionID, Title: row.PositionTitle, Subteam: row.PositionSubteam}})
	}
	writeJSON(w, http.StatusOK, map[string]any{"applicants": out})
	return nil
}

type teamPositionJSON struct {
	ID      uuid.UUID `json:"id"`
	Title   string    `json:"title"`
	Subteam string    `json:"subteam"`
	Grants  string    `json:"grants"`
}

type newExecJSON struct {
	ProfileID   uuid.UUID        `json:"profile_id"`
	DisplayName *string          `json:"display_name"`
	Email       string           `json:"email"`
	Position    teamPositionJSON `json:"position"`
}

type demotedJSON struct {
	ProfileID   uuid.UUID `json:"profile_id"`
	DisplayName *string   `json:"display_name"`
	Email       string    `json:"email"`
}

// hiringTeam is GET /api/applications/hiring/team?term_id= (President):
// what finalization does (or did): the accepted offers and the previous
// execs whose roles end.
func (s *Server) hiringTeam(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	t, err := hiringTerm(ctx, s.store.Queries, r)
	if err != nil {
		return err
	}
	hires, err := s.store.SelectionAccepted(ctx, t.ID)
	if err != nil {
		return err
	}
	prev, err := s.store.SelectionPreviousExecs(ctx, t.ID)
	if err != nil {
		return err
	}
	var finalizedAt *time.Time
	if f, err := s.store.HiringFinalizationGet(ctx, t.ID); err == nil {
		finalizedAt = f.FinalizedAt
	} else if !errors.Is(err, db.ErrNotFound) {
		return err
	}
	newExecs := make([]newExecJSON, len(hires))
	for i, h := range hires {
		newExecs[i] = newExecJSON{ProfileID: h.ProfileID, DisplayName: h.DisplayName, Email: h.Email,
			Position: teamPositionJSON{ID: h.PositionID, Title: h.PositionTitle, Subteam: h.PositionSubteam, Grants: h.Grants}}
	}
	demoted := make([]demotedJSON, len(prev))
	for i, p := range prev {
		demoted[i] = demotedJSON{ProfileID: p.ProfileID, DisplayName: p.DisplayName, Email: p.Email}
	}
	writeJSON(w, http.StatusOK, map[string]any{"term_id": t.ID, "new_execs": newExecs, "demoted": demoted, "finalized_at": finalizedAt})
	return nil
}

type finalizeBody struct {
	TermID      string `json:"term_id"`
	AllHandsURL string `json:"all_hands_url"`
}

func (b *finalizeBody) Validate() apperr.Fields {
	f := apperr.Fields{}
	if _, err := uuid.Parse(b.TermID); err != nil {
		f.Add("term_id", "must be a UUID")
	}
	if why := hiring.CheckAllHandsURL(b.AllHandsURL); why != "" {
		f.Add("all_hands_url", why)
	}
	return f
}

// finalizeHiring is POST /api/applications/hiring/finalize (President):
// claims the term's finalization and queues its workflow in one
// transaction. Only the hiring term can be finalized (409 otherwise), and
// only with at least one accepted offer (409): finalizing ends the roles of
// the execs of earlier terms and cannot be undone. A repeated call queues
// nothing new (the first request's link is kept) and answers the same
// workflow id, even once another term has become the hiring term.
func (s *Server) finalizeHiring(w http.ResponseWriter, r *http.Request) error {
	var body finalizeBody
	if err := decode(w, r, &body); err != nil {
		return err
	}
	ctx := r.Context()
	me := principalFrom(ctx).ProfileID
	termID := uuid.MustParse(body.TermID)
	id := workflows.HiringFinalizationID(termID)
	err := s.store.InTx(ctx, func(q *db.Queries) error {
		t, err := q.TermGet(ctx, termID)
		if errors.Is(err, db.ErrNotFound) {
			return errTermMissing
		}
		if err != nil {
			return err
		}
		switch _, err := q.HiringFinalizationGet(ctx, termID); {
		case err == nil: // claimed already: the same answer
		case !errors.Is(err, db.ErrNotFound):
			return err
		default:
			if err := checkFinalizable(ctx, q, termID); err != nil {
				return err
			}
		}
		f, err := q.HiringFinalizationClaim(ctx, db.HiringFinalizationClaimParams{TermID: termID, WorkflowID: id,
			AllHandsUrl: strings.TrimSpace(body.AllHandsURL), RequestedBy: &me})
		if err != nil {
			return err
		}
		base := strings.TrimRight(s.cfg.PublicURL, "/")
		_, err = outbox.Enqueue(ctx, q, workflows.HiringFinalizationRequest(workflows.HiringFinalizationInput{
			TermID: termID, TermName: t.Name, AllHandsURL: f.AllHandsUrl,
			OnboardingURL: base + "/onboarding", ChatInviteURL: s.cfg.ChatInviteURL,
		}))
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusAccepted, map[string]any{"workflow_id": id})
	return nil
}

// checkFinalizable refuses to finalize a term that is not the hiring term
// or has no accepted offer.
func checkFinalizable(ctx context.Context, q *db.Queries, termID uuid.UUID) error {
	latest, err := q.TermHiring(ctx)
	if err != nil {
		return err
	}
	if latest.ID != termID {
		return errNotHiringTerm
	}
	hires, err := q.SelectionAccepted(ctx, termID)
	if err != nil {
		return err
	}
	if len(hires) == 0 {
		return errNothingToFinalize
	}
	return nil
}
