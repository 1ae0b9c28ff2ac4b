package term

// The positions of an exec role in a term (exec_roles.position), highest
// first: a President decides for every subteam, a VP reviews their own, an
// Exec holds no hiring scope. The set is also a CHECK constraint on the
// exec_roles table (db/migrations); a test in package db keeps the two
// equal.
const (
	PositionPresident = "President"
	PositionVP        = "VP"
	PositionExec      = "Exec"
)

// ExecPositions lists every exec position, highest first. It is the one
// list: the users page and `hackdesk users grant` accept these, and a term
// without positions offers them on the exec forms.
func ExecPositions() []string { return []string{PositionPresident, PositionVP, PositionExec} }
