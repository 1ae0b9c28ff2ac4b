package membership_test

import (
	"bytes"
	"image/png"
	"testing"

	"github.com/google/uuid"
	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"

	"hackdesk/internal/feature/membership"
)

// TestQRPNGRoundTrips renders many signed links, whose lengths and contents
// vary with the id and signature, and reads each back from the PNG.
func TestQRPNGRoundTrips(t *testing.T) {
	t.Parallel()
	signer := membership.QRSigner(bytes.Repeat([]byte{7}, 32))
	pure := map[gozxing.DecodeHintType]interface{}{gozxing.DecodeHintType_PURE_BARCODE: true}
	for i := 0; i < 100; i++ {
		link := membership.QRLink("https://club.example.org/", signer, uuid.New())
		data, err := membership.QRPNG(link)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("not a PNG: %v", err)
		}
		if b := img.Bounds(); b.Dx() != b.Dy() || b.Dx() < 200 {
			t.Fatalf("image is %v, want a square of at least 200 pixels", b)
		}
		bmp, err := gozxing.NewBinaryBitmapFromImage(img)
		if err != nil {
			t.Fatal(err)
		}
		res, err := qrcode.NewQRCodeReader().Decode(bmp, pure)
		if err != nil {
			t.Fatalf("%q does not decode: %v", link, err)
		}
		if res.GetText() != link {
			t.Fatalf("decoded %q, want %q", res.GetText(), link)
		}
	}
}
