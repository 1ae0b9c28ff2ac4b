package browser

import (
	"bufio"
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"testing"
)

// The browser's camera is Chromium's fake capture device playing a file
// (--use-file-for-fake-video-capture), opened anew by each getUserMedia:
// a test shows the camera a picture with SetCamera before the page starts
// scanning. Browser tests run one at a time (the e2e tests take turns), so
// the one file is one test's at a time.
var cameraFile = filepath.Join(os.TempDir(), fmt.Sprintf("hackdesk-camera-%d.y4m", os.Getpid()))

// Camera frame size: a phone's camera held up to a ticket, in 4:3.
const cameraW, cameraH = 640, 480

// SetCamera makes the camera show img, centred on white and scaled to
// fill most of the frame's height (a QR code held in front of the lens).
func SetCamera(t testing.TB, img image.Image) {
	t.Helper()
	if err := writeY4M(cameraFile, img); err != nil {
		t.Fatalf("browser: camera: %v", err)
	}
}

// writeY4M writes a few frames of img as greyscale YUV 4:2:0 (YUV4MPEG2),
// the format Chromium's fake capture device plays.
func writeY4M(path string, img image.Image) error {
	luma := make([]byte, cameraW*cameraH)
	for i := range luma {
		luma[i] = 235 // white
	}
	if img != nil {
		b := img.Bounds()
		side := cameraH * 3 / 4 // the picture's size in the frame
		scale := float64(max(b.Dx(), b.Dy())) / float64(side)
		x0, y0 := (cameraW-side)/2, (cameraH-side)/2
		for y := 0; y < side; y++ {
			for x := 0; x < side; x++ {
				sx, sy := b.Min.X+int(float64(x)*scale), b.Min.Y+int(float64(y)*scale)
				if sx >= b.Max.X || sy >= b.Max.Y {
					continue
				}
				g := color.GrayModel.Convert(img.At(sx, sy)).(color.Gray)
				luma[(y0+y)*cameraW+x0+x] = 16 + byte(int(g.Y)*219/255)
			}
		}
	}
	chroma := make([]byte, cameraW*cameraH/4)
	for i := range chroma {
		chroma[i] = 128
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "YUV4MPEG2 W%d H%d F10:1 Ip A1:1 C420jpeg\n", cameraW, cameraH)
	frame := append(append(append([]byte("FRAME\n"), luma...), chroma...), chroma...)
	for range 10 {
		if _, err := w.Write(frame); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
