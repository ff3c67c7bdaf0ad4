package adbtest

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/draw"
	"image/png"
)

// palette of the screenshot: background, text bars, fields, buttons, bars.
var palette = color.Palette{
	color.RGBA{255, 255, 255, 255}, // 0 background
	color.RGBA{33, 33, 33, 255},    // 1 text
	color.RGBA{238, 238, 238, 255}, // 2 text field
	color.RGBA{98, 0, 238, 255},    // 3 button
	color.RGBA{55, 0, 179, 255},    // 4 toolbar, status bar
	color.RGBA{200, 200, 200, 255}, // 5 row divider
}

// screenshot paints the front window's views as flat rectangles: enough
// for a journal to show where things are, and cheap to encode.
func (a *App) screenshot() *image.Paletted {
	a.mu.Lock()
	root := a.render()
	a.mu.Unlock()
	img := image.NewPaletted(image.Rect(0, 0, ScreenWidth, ScreenHeight), palette)
	fill := func(r rect, c uint8) {
		draw.Draw(img, image.Rect(r.X1, r.Y1, r.X2, r.Y2), &image.Uniform{palette[c]}, image.Point{}, draw.Src)
	}
	fill(rect{0, 0, ScreenWidth, contentTop}, 4)
	var paint func(n *node)
	paint = func(n *node) {
		switch {
		case n.id == idToolbar:
			fill(n.bounds, 4)
		case n.class == "android.widget.EditText":
			fill(n.bounds, 2)
		case n.class == "android.widget.Button" || n.class == "android.widget.ImageButton":
			fill(n.bounds, 3)
		case n.id == idRow:
			fill(rect{n.bounds.X1, n.bounds.Y2 - 2, n.bounds.X2, n.bounds.Y2}, 5)
		}
		if n.text != "" {
			// A bar as wide as the text would be, at 24 px per character.
			w := min(n.bounds.X2-n.bounds.X1-16, 24*len([]rune(n.text)))
			h := (n.bounds.Y2 - n.bounds.Y1) / 3
			mid := (n.bounds.Y1 + n.bounds.Y2) / 2
			fill(rect{n.bounds.X1 + 8, mid - h/2, n.bounds.X1 + 8 + w, mid + h/2}, 1)
		}
		for _, c := range n.children {
			paint(c)
		}
	}
	paint(root)
	return img
}

// encodePNG encodes fast rather than small: screenshots are taken often.
func encodePNG(img image.Image) []byte {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		return nil // cannot happen for an in-memory image
	}
	return buf.Bytes()
}

// rawScreencap is `screencap` without -p: a 16-byte header (width, height,
// format 1 = RGBA_8888, colour space 0) and RGBA pixels.
func rawScreencap(img *image.Paletted) []byte {
	b := img.Bounds()
	out := make([]byte, 16, 16+4*b.Dx()*b.Dy())
	binary.LittleEndian.PutUint32(out[0:], uint32(b.Dx()))
	binary.LittleEndian.PutUint32(out[4:], uint32(b.Dy()))
	binary.LittleEndian.PutUint32(out[8:], 1)
	for _, ix := range img.Pix {
		c := palette[ix].(color.RGBA)
		out = append(out, c.R, c.G, c.B, c.A)
	}
	return out
}
