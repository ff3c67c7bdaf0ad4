package suggest

import (
	"slices"
	"testing"
)

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"", "ab", 2}, {"click", "click", 0},
		{"clik", "click", 1}, {"nmae", "name", 1}, {"titel", "title", 1},
		{"kitten", "sitting", 3}, {"ab", "ba", 1}, {"abc", "cba", 2},
	}
	for _, tt := range tests {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := Distance(tt.b, tt.a); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (not symmetric)", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestClosest(t *testing.T) {
	names := []string{"click", "double_click", "right_click", "type", "title", "name", "text"}
	tests := []struct {
		name string
		want []string
	}{
		{"clik", []string{"click"}},
		{"nmae", []string{"name"}},
		{"titel", []string{"title"}},
		{"txt", []string{"text"}},
		{"zzzzzz", nil},
		{"click", nil}, // an exact name is not a suggestion
	}
	for _, tt := range tests {
		if got := Closest(tt.name, names, 3); !slices.Equal(got, tt.want) {
			t.Errorf("Closest(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}
