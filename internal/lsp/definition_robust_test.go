package lsp

import (
	"math/rand"
	"testing"

	"github.com/cogflow/cogflow/stdlib/kb"
)

// navEveryFeature runs every reading feature on d, at every few offsets,
// as a server would; a panic fails the test (the server would answer
// with an internal error instead of the feature).
func navEveryFeature(t *testing.T, d *Document) {
	t.Helper()
	navSemanticData(d)
	navDocumentSymbols(d)
	f := &navFolder{d: d}
	if d.File != nil {
		for _, b := range d.File.Bodies() {
			f.block(b)
		}
	}
	ix := newNavIndex(d)
	for _, st := range ix.steps {
		demoFor(d, st)
	}
	for off := 0; off <= len(d.Text); off += 5 {
		navHover(d, off, off%2 == 0)
		navCallContext(d.Text, off)
		if o := ix.occAt(off); o != nil {
			ix.uses(o.decl)
			_ = navCheckNewName(ix, o, "renamed")
			_ = navRenameSafe(d, o.id.Name, "renamed")
		}
	}
}

// TestNavSurvivesEdits runs the features on the test files with random
// spans cut out and pasted elsewhere: trees with holes of every shape.
func TestNavSurvivesEdits(t *testing.T) {
	rng := rand.New(rand.NewSource(17))
	for _, src := range []string{navSrc, navOutlineSrc} {
		for range 80 {
			b := []byte(src)
			for range 1 + rng.Intn(3) {
				i := rng.Intn(len(b))
				j := i + rng.Intn(min(40, len(b)-i)+1)
				cut := append([]byte(nil), b[i:j]...)
				b = append(b[:i:i], b[j:]...)
				k := rng.Intn(len(b) + 1)
				b = append(b[:k:k], append(cut, b[k:]...)...)
			}
			d := analyze("file:///r.cog", "/r.cog", 1, b, kb.Default(), "")
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("panic %v on:\n%s", p, b)
					}
				}()
				navEveryFeature(t, d)
			}()
		}
	}
}
