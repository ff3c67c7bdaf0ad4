package driver

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"strings"
)

// MaskColor is the colour of the boxes that cover a secret in screenshots.
var MaskColor = color.NRGBA{R: 0x20, G: 0x20, B: 0x20, A: 0xff}

// maskMargin widens every box by this many image pixels on each side, so
// that anti-aliased glyph edges go too.
const maskMargin = 2

// CoverPNG paints the boxes over a PNG in MaskColor: a driver covers what
// shows a secret before a screenshot leaves it. wide is the image's width
// in the boxes' units (a browser's viewport in CSS pixels); 0 means the
// boxes are in the image's pixels.
func CoverPNG(pngData []byte, boxes []Rect, wide float64) ([]byte, error) {
	src, err := png.Decode(bytes.NewReader(pngData))
	if err != nil {
		return nil, err
	}
	b := src.Bounds()
	scale := 1.0
	if wide > 0 {
		scale = float64(b.Dx()) / wide
	}
	img := image.NewNRGBA(b)
	draw.Draw(img, b, src, b.Min, draw.Src)
	for _, bx := range boxes {
		r := image.Rect(int(bx.X*scale)-maskMargin, int(bx.Y*scale)-maskMargin,
			int((bx.X+bx.W)*scale+0.999)+maskMargin, int((bx.Y+bx.H)*scale+0.999)+maskMargin).Add(b.Min)
		draw.Draw(img, r.Intersect(b), image.NewUniform(MaskColor), image.Point{}, draw.Src)
	}
	var out bytes.Buffer
	if err := png.Encode(&out, img); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// SecretBoxes returns the bounds of the elements that show one of the
// secrets (in their name, text or value, ignoring case: a screen may show a
// typed text in capitals), innermost only: a container whose text gathers
// its children's is left to them, so that a screenshot loses no more than
// the secret's own boxes.
func SecretBoxes(els []*Element, secrets []string) []Rect {
	var shows []Rect
	for _, el := range els {
		if el != nil && showsSecret(el, secrets) && el.Bounds.W > 0 && el.Bounds.H > 0 {
			shows = append(shows, el.Bounds)
		}
	}
	var out []Rect
	for i, r := range shows {
		inner := true
		for j, o := range shows {
			if i != j && contains(r, o) && r != o {
				inner = false
				break
			}
		}
		if inner {
			out = append(out, r)
		}
	}
	return out
}

func contains(r, o Rect) bool {
	return o.X >= r.X && o.Y >= r.Y && o.X+o.W <= r.X+r.W && o.Y+o.H <= r.Y+r.H
}

func showsSecret(el *Element, secrets []string) bool {
	for _, t := range []string{el.Name, el.Text, el.Value} {
		lt := strings.ToLower(t)
		for _, s := range secrets {
			if s != "" && strings.Contains(lt, strings.ToLower(s)) {
				return true
			}
		}
	}
	return false
}
