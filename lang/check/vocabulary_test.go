package check

import (
	"slices"
	"testing"

	"github.com/cogflow/cogflow/lang/action"
)

// TestActionsAreTheVocabulary keeps the checker's table and lang/action
// equal: an action is named in lang/action and given a signature here,
// and neither list may have one the other lacks.
func TestActionsAreTheVocabulary(t *testing.T) {
	var want []string
	for _, a := range action.All() {
		want = append(want, string(a))
		if got := Actions[string(a)]; got == nil {
			t.Errorf("lang/action names %q; the checker's table has no signature for it", a)
		} else if got.Name != a {
			t.Errorf("Actions[%q].Name = %q", a, got.Name)
		}
	}
	slices.Sort(want)
	if got := ActionNames(); !slices.Equal(got, want) {
		t.Errorf("the checker's actions are %v;\nlang/action has %v", got, want)
	}
}
