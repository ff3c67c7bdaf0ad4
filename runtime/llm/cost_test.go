package llm

import (
	"math"
	"testing"
)

func TestCost(t *testing.T) {
	tests := []struct {
		model     string
		in, out   int
		want      float64
		wantKnown bool
	}{
		{"gpt-4o-mini", 1_000_000, 1_000_000, 0.15 + 0.60, true},
		{"gpt-4o-mini-2024-07-18", 2000, 500, (2000*0.15 + 500*0.60) / 1e6, true},
		{"gpt-4o", 1000, 1000, (1000*2.5 + 1000*10) / 1e6, true},
		{"GPT-4o-2024-08-06", 1000, 0, 1000 * 2.5 / 1e6, true},
		{"openai/gpt-4.1-mini", 1_000_000, 0, 0.40, true},
		{"gpt-4.1", 0, 1_000_000, 8, true},
		{"gpt-4-turbo-preview", 1_000_000, 0, 10, true},
		{"gpt-4-0613", 1_000_000, 0, 30, true},
		{"o3-mini", 1_000_000, 1_000_000, 1.10 + 4.40, true},
		{"o1-preview", 1_000_000, 0, 15, true},
		{"gpt-5-nano", 1_000_000, 0, 0.05, true},
		{"o100", 1000, 1000, 0, false},    // not "o1"
		{"gpt-40x", 1000, 1000, 0, false}, // not "gpt-4"
		{"llama3.1:8b", 1000, 1000, 0, false},
		{"", 1000, 1000, 0, false},
	}
	for _, tt := range tests {
		got, known := Cost(tt.model, tt.in, tt.out)
		if known != tt.wantKnown || math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("Cost(%q, %d, %d) = %g, %v; want %g, %v", tt.model, tt.in, tt.out, got, known, tt.want, tt.wantKnown)
		}
	}
}

func TestPricesAreSane(t *testing.T) {
	for prefix, p := range Prices {
		if p.Input <= 0 || p.Output < p.Input {
			t.Errorf("%s: input %g output %g: want 0 < input <= output", prefix, p.Input, p.Output)
		}
	}
}
