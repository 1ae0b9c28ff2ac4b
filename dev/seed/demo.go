package seed

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/hiring"
	"hackdesk/internal/platform/auth"
)

// DemoDomain is the domain of the demo accounts' emails; like EmailDomain
// it is reserved (.test), so their mail reaches nobody.
const DemoDomain = "demo.hackdesk.test"

// DemoTermName names the term Demo makes.
const DemoTermName = "Demo term"

// DemoAccount is one account Demo made or reset. Password is new, random
// and kept nowhere: the caller shows it once.
type DemoAccount struct {
	Email    string
	Role     string // what the account is for: applicant, reviewer, ...
	Password string
	Existed  bool // the account was there already; its password was reset
}

// DemoResult says what Demo did.
type DemoResult struct {
	Term        string // the demo term's name
	TermCreated bool
	Accounts    []DemoAccount // in demoUsers order
	// EditionsCreated: the two demo hackathon editions (DemoPastHackathon,
	// DemoCurrentHackathon) were made by this run.
	EditionsCreated bool
}

// demoPosition is a position of the demo term, one per grant kind.
type demoPosition struct {
	title, subteam string
	grants         hiring.Grant
	description    string
}

var demoPositions = []demoPosition{
	{"President", "Board", hiring.GrantPresident, "Leads the club and its board for the term."},
	{"VP Design", "Design", hiring.GrantVP, "Leads the design subteam: the brand, the site and event material."},
	{"Exec Design", "Design", hiring.GrantExec, "Designs with the subteam: posters, slides and the site."},
}

// demoQuestion is a question-bank question; position names the position
// it belongs to (by title), "" for a general question.
type demoQuestion struct {
	prompt, help string
	limit        int32
	required     bool
	position     string
}

var demoQuestions = []demoQuestion{
	{"What would you like to get out of the club this year?", "A few sentences are plenty.", 1000, false, ""},
	{"Show us a design you are proud of and tell us what you would change about it now.",
		"A link to the work and a paragraph about it.", 1500, true, "VP Design"},
}

// demoUser is one demo account: its role, and the exec role of a demo
// position (by title) when it holds one.
type demoUser struct {
	local, name, role string
	profileRole       string
	position          string
}

var demoUsers = []demoUser{
	{"applicant", "Ada Applicant", "applicant", "member", ""},
	{"reviewer", "Rey Reviewer", "reviewer", "admin", ""},
	{"superadmin", "Sam Superadmin", "superadmin", "superadmin", ""},
	{"vp", "Val Design", "VP (Design)", "admin", "VP Design"},
	{"president", "Pat President", "President", "admin", "President"},
	{"exec", "Eli Design", "exec (Design)", "member", "Exec Design"},
}

func (u demoUser) email() string { return u.local + "@" + DemoDomain }

// Demo makes the data to click through every page: in one transaction the
// demo term (unless it exists; it becomes the active term when no term is)
// with a position per grant kind and two question-bank questions, and one
// confirmed account per role (demoUsers) with a new random password; then,
// in a second, two hackathon editions (demoEditions): last year's, closed
// and decided, and this year's, current and open. Run again, it keeps the
// term and the editions and resets each account: a new password, its role,
// its exec role. It returns the accounts with their passwords.
func Demo(ctx context.Context, store *db.Store) (DemoResult, error) {
	passwords, hashes, err := demoPasswords(ctx, len(demoUsers))
	if err != nil {
		return DemoResult{}, err
	}
	var res DemoResult
	err = store.InTx(ctx, func(q *db.Queries) error {
		res = DemoResult{}
		term, created, err := demoTerm(ctx, q)
		if err != nil {
			return err
		}
		res.Term, res.TermCreated = term.Name, created
		for i, u := range demoUsers {
			existed, err := demoAccount(ctx, q, u, hashes[i], term.ID)
			if err != nil {
				return err
			}
			res.Accounts = append(res.Accounts, DemoAccount{Email: u.email(), Role: u.role, Password: passwords[i], Existed: existed})
		}
		return nil
	})
	if err != nil {
		return res, err
	}
	res.EditionsCreated, err = demoEditions(ctx, store)
	return res, err
}

// demoPasswords makes n random passwords (16 characters of base64url,
// 96 bits) and their hashes.
func demoPasswords(ctx context.Context, n int) (passwords, hashes []string, err error) {
	for range n {
		b := make([]byte, 12)
		if _, err := rand.Read(b); err != nil {
			return nil, nil, err
		}
		pw := base64.RawURLEncoding.EncodeToString(b)
		h, err := auth.HashPassword(ctx, pw, auth.DefaultParams)
		if err != nil {
			return nil, nil, err
		}
		passwords, hashes = append(passwords, pw), append(hashes, h)
	}
	return passwords, hashes, nil
}

// demoTerm finds the demo term, or makes it with its positions and
// questions.
func demoTerm(ctx context.Context, q *db.Queries) (db.Term, bool, error) {
	t, err := q.TermGetByName(ctx, DemoTermName)
	if !errors.Is(err, db.ErrNotFound) {
		return t, false, err
	}
	today := time.Now().UTC().Truncate(24 * time.Hour)
	t, err = q.TermInsert(ctx, db.TermInsertParams{Name: DemoTermName, StartsOn: today, EndsOn: today.AddDate(0, 4, 0)})
	if err != nil {
		return t, false, err
	}
	if err := activateIfNone(ctx, q, t.ID); err != nil {
		return t, false, err
	}
	return t, true, demoHiring(ctx, q, t.ID)
}

// activateIfNone makes the term active when no term is.
func activateIfNone(ctx context.Context, q *db.Queries, id uuid.UUID) error {
	_, err := q.TermActive(ctx)
	if errors.Is(err, db.ErrNotFound) {
		return q.TermSetActive(ctx, id)
	}
	return err
}

// demoHiring adds the demo positions and questions to a term.
func demoHiring(ctx context.Context, q *db.Queries, termID uuid.UUID) error {
	ids := map[string]uuid.UUID{}
	for _, p := range demoPositions {
		row, err := q.PositionInsert(ctx, db.PositionInsertParams{TermID: termID, Title: p.title,
			Subteam: p.subteam, Grants: string(p.grants), Description: p.description, Open: true})
		if err != nil {
			return err
		}
		ids[p.title] = row.ID
	}
	for _, dq := range demoQuestions {
		limit := dq.limit
		row, err := q.QuestionInsert(ctx, db.QuestionInsertParams{Prompt: dq.prompt, Type: "textarea",
			CharLimit: &limit, HelpText: dq.help, Required: dq.required})
		if err != nil {
			return err
		}
		if dq.position == "" {
			continue
		}
		if err := q.PositionQuestionsAdd(ctx, db.PositionQuestionsAddParams{
			QuestionID: row.ID, PositionIds: []uuid.UUID{ids[dq.position]}}); err != nil {
			return err
		}
	}
	return nil
}

// demoAccount makes u's confirmed account with the password hash, or
// resets it when it exists; either way it gets u's role and exec role.
func demoAccount(ctx context.Context, q *db.Queries, u demoUser, hash string, termID uuid.UUID) (existed bool, err error) {
	p, err := q.ProfileGetByEmail(ctx, u.email())
	switch {
	case errors.Is(err, db.ErrNotFound):
		now, name := time.Now(), u.name
		p, err = q.ProfileInsert(ctx, db.ProfileInsertParams{Email: u.email(), DisplayName: &name,
			PasswordHash: hash, Role: u.profileRole, EmailConfirmedAt: &now})
	case err == nil:
		existed = true
		err = resetDemoAccount(ctx, q, p.ID, u, hash)
	}
	if err != nil {
		return existed, err
	}
	return existed, demoExecRole(ctx, q, p.ID, u, termID)
}

// resetDemoAccount gives an existing demo account a new password and its
// demo role, and confirms its email.
func resetDemoAccount(ctx context.Context, q *db.Queries, id uuid.UUID, u demoUser, hash string) error {
	if err := q.ProfileSetPassword(ctx, db.ProfileSetPasswordParams{ID: id, PasswordHash: hash}); err != nil {
		return err
	}
	if _, err := q.ProfileSetRole(ctx, db.ProfileSetRoleParams{ID: id, Role: u.profileRole}); err != nil {
		return err
	}
	return q.ProfileConfirmEmail(ctx, id)
}

// demoExecRole gives the account the exec role of u's position in the
// demo term, as hiring finalization gives a hire (hiring.Grant), ending
// any other active one.
func demoExecRole(ctx context.Context, q *db.Queries, id uuid.UUID, u demoUser, termID uuid.UUID) error {
	if u.position == "" {
		return nil
	}
	var pos demoPosition
	for _, p := range demoPositions {
		if p.title == u.position {
			pos = p
		}
	}
	exec, subteam := pos.grants.ExecPosition(), pos.subteam
	if err := q.ExecRoleEndOthers(ctx, db.ExecRoleEndOthersParams{
		ProfileID: id, Position: exec, Subteam: subteam, TermID: termID}); err != nil {
		return err
	}
	_, err := q.ExecRoleEnsure(ctx, db.ExecRoleEnsureParams{ProfileID: id, Position: exec, Subteam: &subteam, TermID: &termID})
	return err
}
