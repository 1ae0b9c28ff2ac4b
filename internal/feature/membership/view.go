package membership

import (
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
)

// View is a membership as the API shows it.
type View struct {
	ID          uuid.UUID  `json:"id"`
	ProfileID   uuid.UUID  `json:"profile_id"`
	TermID      uuid.UUID  `json:"term_id"`
	Status      string     `json:"status"`
	AmountCents *int64     `json:"amount_cents"`
	Method      *string    `json:"method"`
	PaidAt      *time.Time `json:"paid_at"`
	ConfirmedBy *uuid.UUID `json:"confirmed_by"`
	ReceiptID   *uuid.UUID `json:"receipt_id"`
	CreatedAt   time.Time  `json:"created_at"`
}

// ToView is m as the API shows it.
func ToView(m db.Membership) View {
	return View{ID: m.ID, ProfileID: m.ProfileID, TermID: m.TermID, Status: m.Status,
		AmountCents: m.AmountCents, Method: m.Method, PaidAt: m.PaidAt, ConfirmedBy: m.ConfirmedBy,
		ReceiptID: m.ReceiptID, CreatedAt: m.CreatedAt}
}

// Member names the member on the exec's confirmation page and in the list.
type Member struct {
	DisplayName string `json:"display_name"`
	Email       string `json:"email"`
}

func toMember(name *string, email string) Member {
	m := Member{Email: email}
	if name != nil {
		m.DisplayName = *name
	}
	return m
}

// ListItem is a membership in the admins' list, with its member.
type ListItem struct {
	View
	Member Member `json:"member"`
}

// Detail is what an exec sees of a membership: it, its member and its
// term (which the API shows as terms are shown).
type Detail struct {
	Membership View
	Member     Member
	Term       db.Term
}

// ReceiptView is a stored receipt as the admins' list shows it.
type ReceiptView struct {
	ID            uuid.UUID `json:"id"`
	TransactionID string    `json:"transaction_id"`
	CustomerEmail string    `json:"customer_email"`
	AmountCents   *int64    `json:"amount_cents"`
	Status        string    `json:"status"`
	Reason        string    `json:"reason"`
	CreatedAt     time.Time `json:"created_at"`
}

func toReceiptView(r db.Receipt) ReceiptView {
	return ReceiptView{ID: r.ID, TransactionID: r.TransactionID, CustomerEmail: r.CustomerEmail,
		AmountCents: r.AmountCents, Status: r.Status, Reason: r.Reason, CreatedAt: r.CreatedAt}
}
