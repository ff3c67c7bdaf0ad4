package synth

import "testing"

// FuzzSynthesize: whatever the texts, synthesis does not fail, and a
// program it returns reads a source and reproduces the output.
func FuzzSynthesize(f *testing.F) {
	for _, c := range synthCases {
		if len(c.sources) == 1 {
			f.Add(c.sources[0].Value, c.output)
		}
	}
	f.Add("a\x00b", "b")
	f.Add("((((", "(")
	f.Add("$1 $2", "$2")
	f.Add("%s%d", "%d")
	f.Add("\xff\xfe", "x")
	f.Fuzz(func(t *testing.T, value, output string) {
		sources := []Source{{Name: "op2", Value: value}}
		p, ok := Synthesize(output, sources, Options{})
		if !ok {
			return
		}
		if len(p.Refs()) == 0 {
			t.Fatalf("%s reads no source", p)
		}
		if got, err := p.Eval(map[string]string{"op2": value}); err != nil || got != output {
			t.Fatalf("%s gives %q, %v; want %q", p, got, err, output)
		}
	})
}
