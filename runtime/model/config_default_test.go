package model

import (
	"testing"

	"github.com/cogflow/cogflow/runtime/config"
)

// TestCandidateBudgetDefault: the configuration's default is the
// answerer's. The test lives here, not in runtime/config, since config
// must not import the answerer (llm.FromConfig imports config).
func TestCandidateBudgetDefault(t *testing.T) {
	if config.DefaultCandidateBudget != DefaultCandidateBudget {
		t.Errorf("config.DefaultCandidateBudget = %d, resolve.DefaultCandidateBudget = %d", config.DefaultCandidateBudget, DefaultCandidateBudget)
	}
}
