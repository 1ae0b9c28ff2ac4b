package receipts

// The internals the external tests check against.
const (
	MaxCents      = maxCents
	MaxFolds      = maxFolds
	MaxItems      = maxItems
	MaxParts      = maxParts
	MaxQuantity   = maxQuantity
	MaxSignatures = maxSignatures
)

var (
	CRLF       = crlf
	IDPattern  = idPattern
	ParseCents = parseCents
)
