package browser

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"strconv"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/driver"
)

// maskPage has a plain text field (not a password field), a text that
// echoes it in capitals, and a coloured block that is never covered.
const maskPage = `<!doctype html><title>Mask</title>
<style>
body { margin: 0; background: #fff; font: 28px sans-serif; }
#pin { position: absolute; left: 40px; top: 40px; width: 400px; height: 60px; font: 28px monospace; background: #ffe; }
#echo { position: absolute; left: 40px; top: 160px; color: #c00; text-transform: uppercase; }
#block { position: absolute; left: 600px; top: 40px; width: 200px; height: 200px; background: #0a0; }
</style>
<input id=pin aria-label=PIN>
<input id=fmt aria-label=Formatted style="position: absolute; left: 40px; top: 260px; width: 400px; height: 60px; font: 28px monospace;"
  onchange="this.value = this.value.replace(/-/g, ' ')">
<div id=echo></div>
<div id=block></div>
<script>
document.getElementById('pin').addEventListener('input', e => {
  document.getElementById('echo').textContent = 'You typed ' + e.target.value;
});
</script>`

// TestScreenshotMasksSecret types a secret into a plain field and another
// into a field that reformats it, with screenshots on, and checks the
// pixels: the fields' boxes and the page's echo are one uniform colour, the
// rest of the page is not; typed as a non-secret, the same field shows.
func TestScreenshotMasksSecret(t *testing.T) {
	d := sharedDriver(t)
	t.Cleanup(func() { d.life.Lock(); d.secrets = nil; d.life.Unlock() })
	s := newSite(t)
	for _, tc := range []struct {
		name   string
		secret bool
	}{{"secret", true}, {"plain text", false}} {
		t.Run(tc.name, func(t *testing.T) {
			d.life.Lock()
			d.secrets = nil
			d.life.Unlock()
			open(t, d, s.page("/mask", maskPage))
			do(t, d, driver.Action{Op: "type", Target: target(t, d, "pin"), Text: "wq-7391", Secret: tc.secret})
			// A field that reformats what was typed holds no text of the
			// secret any more: it is covered because a secret was typed
			// into it.
			do(t, d, driver.Action{Op: "type", Target: target(t, d, "fmt"), Text: "zz-5120", Secret: tc.secret})
			if got := eval(t, d, "document.getElementById('fmt').value"); got != "zz 5120" {
				t.Fatalf("the formatted field holds %q", got)
			}
			shot, err := d.Screenshot(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(shot))
			if err != nil {
				t.Fatal(err)
			}
			scale := float64(img.Bounds().Dx()) / number(t, eval(t, d, "window.innerWidth"))
			field := rectOf(t, d, "document.getElementById('pin')", scale)
			echo := rectOf(t, d, "document.getElementById('echo')", scale)
			formatted := rectOf(t, d, "document.getElementById('fmt')", scale)
			block := rectOf(t, d, "document.getElementById('block')", scale)
			if tc.secret {
				for name, r := range map[string]image.Rectangle{"field": field, "echo": echo, "formatted field": formatted} {
					if c, ok := uniform(img, r); !ok || !sameColor(c, driver.MaskColor) {
						t.Errorf("the %s's box %v is not covered in %v (uniform=%v)", name, r, driver.MaskColor, ok)
					}
				}
			} else if _, ok := uniform(img, field); ok {
				t.Errorf("the field's box %v is uniform though nothing secret was typed: the test would prove nothing", field)
			}
			if c, ok := uniform(img, block); !ok || sameColor(c, driver.MaskColor) {
				t.Errorf("the green block %v was changed: uniform=%v colour %v", block, ok, c)
			}
			if _, ok := uniform(img, img.Bounds()); ok {
				t.Error("the whole screenshot is one colour")
			}
		})
	}
}

// rectOf is the device-pixel box of the element expr names.
func rectOf(t *testing.T, d *Driver, expr string, scale float64) image.Rectangle {
	t.Helper()
	parts := strings.Split(eval(t, d, "(r => [r.left, r.top, r.right, r.bottom].join(','))("+expr+".getBoundingClientRect())"), ",")
	var v [4]int
	for i, p := range parts {
		v[i] = int(number(t, p) * scale)
	}
	return image.Rect(v[0], v[1], v[2], v[3])
}

func number(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// uniform reports whether every pixel of r in img has one colour, and
// which.
func uniform(img image.Image, r image.Rectangle) (color.Color, bool) {
	r = r.Intersect(img.Bounds())
	if r.Empty() {
		return nil, false
	}
	first := img.At(r.Min.X, r.Min.Y)
	fr, fg, fb, fa := first.RGBA()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, ca := img.At(x, y).RGBA()
			if cr != fr || cg != fg || cb != fb || ca != fa {
				return first, false
			}
		}
	}
	return first, true
}

func sameColor(a, b color.Color) bool {
	ar, ag, ab, aa := a.RGBA()
	br, bg, bb, ba := b.RGBA()
	return ar == br && ag == bg && ab == bb && aa == ba
}

// TestCopyOutOfSecretField: what is copied out of a field a secret was
// typed into is reported secret, even after the page reformatted it;
// copied out of another field, it is not.
func TestCopyOutOfSecretField(t *testing.T) {
	d := sharedDriver(t)
	t.Cleanup(func() { d.life.Lock(); d.secrets = nil; d.life.Unlock() })
	s := newSite(t)
	open(t, d, s.page("/mask", maskPage))
	do(t, d, driver.Action{Op: "type", Target: target(t, d, "fmt"), Text: "zz-5120", Secret: true})
	do(t, d, driver.Action{Op: "type", Target: target(t, d, "pin"), Text: "plain-1"})
	for _, tc := range []struct {
		id, text string
		secret   bool
	}{{"fmt", "zz 5120", true}, {"pin", "plain-1", false}} {
		res := do(t, d, driver.Action{Op: "copy", Target: target(t, d, tc.id)})
		if res.Text != tc.text || res.Secret != tc.secret {
			t.Errorf("copy of %s: %q secret=%v, want %q secret=%v", tc.id, res.Text, res.Secret, tc.text, tc.secret)
		}
	}
}
