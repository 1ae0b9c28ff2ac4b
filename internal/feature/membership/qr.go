package membership

import (
	"bytes"
	"strings"

	"github.com/google/uuid"
	qrcode "github.com/yeqown/go-qrcode/v2"
	"github.com/yeqown/go-qrcode/writer/standard"

	"hackdesk/internal/platform/signing"
)

// QRSigner signs membership ids for the QR link.
func QRSigner(key []byte) signing.Signer { return signing.New(key, signing.PurposeMembershipQR) }

// QRLink is the link a member's QR code holds: the exec's confirmation page
// for the membership, signed so that only a member's own code opens it.
func QRLink(publicURL string, s signing.Signer, id uuid.UUID) string {
	return strings.TrimRight(publicURL, "/") + "/admin/memberships/" + id.String() + "?sig=" + s.Sign(id.String())
}

// CheckQRSignatures verifies the signatures of a QR link that came with a
// request for the membership id (as the path spells it): at least one must
// be there, and each one there must verify (ErrBadQRSignature otherwise).
func CheckQRSignatures(s signing.Signer, id string, sigs []string) error {
	if len(sigs) == 0 {
		return ErrBadQRSignature
	}
	for _, sig := range sigs {
		if s.Verify(id, sig) != nil {
			return ErrBadQRSignature
		}
	}
	return nil
}

// QRPNG renders text as a QR code PNG (error correction M, 8-pixel
// modules with the standard quiet zone).
func QRPNG(text string) ([]byte, error) {
	code, err := qrcode.NewWith(text, qrcode.WithErrorCorrectionLevel(qrcode.ErrorCorrectionMedium))
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	wr := standard.NewWithWriter(nopCloser{&buf}, standard.WithBuiltinImageEncoder(standard.PNG_FORMAT),
		standard.WithQRWidth(8), standard.WithBorderWidth(32))
	if err := code.Save(wr); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

type nopCloser struct{ *bytes.Buffer }

func (nopCloser) Close() error { return nil }
