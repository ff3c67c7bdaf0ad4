package android

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"testing"

	"github.com/cogflow/cogflow/runtime/driver"
)

// TestScreenshotCoversSecret types into a plain text field of the
// simulated device, as a secret and as plain text, and checks the
// screenshot's pixels: the field's box is one colour, the mask's, only
// when a secret was typed, and the rest of the screen is not.
func TestScreenshotCoversSecret(t *testing.T) {
	for _, secret := range []bool{true, false} {
		d, _ := simDriver(t)
		do(t, d, "launch", "com.example.contacts")
		do(t, d, "click", "", "role", "listitem", "name", "Bob Smith")
		do(t, d, "click", "", "role", "button", "name", "Edit")
		tr, err := d.Observe(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		field := el(t, tr, "id", "name_input")
		if _, err := d.Do(context.Background(), driver.Action{Op: "type", Target: field, Text: "Kq7 Lumen", Secret: secret}); err != nil {
			t.Fatal(err)
		}
		shot, err := d.Screenshot(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(shot))
		if err != nil {
			t.Fatal(err)
		}
		b := field.Bounds
		box := image.Rect(int(b.X), int(b.Y), int(b.X+b.W), int(b.Y+b.H))
		covered := oneColour(img, box, driver.MaskColor)
		if covered != secret {
			t.Errorf("secret=%v: the field's box %v is covered: %v", secret, box, covered)
		}
		if oneColour(img, img.Bounds(), driver.MaskColor) {
			t.Errorf("secret=%v: the whole screen is covered", secret)
		}
	}
}

// oneColour reports whether every pixel of r in img is c.
func oneColour(img image.Image, r image.Rectangle, c interface{ RGBA() (r, g, b, a uint32) }) bool {
	r = r.Intersect(img.Bounds())
	if r.Empty() {
		return false
	}
	cr, cg, cb, ca := c.RGBA()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			pr, pg, pb, pa := img.At(x, y).RGBA()
			if pr != cr || pg != cg || pb != cb || pa != ca {
				return false
			}
		}
	}
	return true
}
