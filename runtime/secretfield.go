package runtime

import (
	"context"

	"github.com/cogflow/cogflow/lang/check"
	"github.com/zclconf/go-cty/cty"
)

// secretParam names the parameter of an action that takes a text which
// may be a secret (type's and paste's text), "" for an action without one.
func secretParam(spec *check.Action) string {
	for _, p := range spec.Params {
		if p.Secret {
			return p.Name
		}
	}
	return ""
}

// secretField makes the text a step types or pastes into a secret field (a
// password field, driver.Element.Secret) one of the run's secrets, even
// when the workflow's input was not declared secret: from then on the
// journal, the reports, the screenshots and the progress output redact it.
// It runs before the step's intent is journaled, so it looks at the screen
// as it is (anchorShown, waiting as the action would for its target to
// appear); a target it cannot anchor yet is left to act, which checks
// again before acting.
func (in *Interp) secretField(ctx context.Context, spec *check.Action, args map[string]cty.Value) error {
	name := secretParam(spec)
	text, ok := args[name]
	if name == "" || !ok || text.IsNull() || !text.Type().Equals(cty.String) || text.AsString() == "" {
		return nil
	}
	if in.secrets.Holds(text.AsString()) {
		return nil
	}
	t, ok := args["target"]
	if !ok || t.IsNull() {
		return nil
	}
	e, err := asElem(t)
	if err != nil {
		return nil
	}
	live, err := in.anchorShown(ctx, e, 0)
	if err != nil || live == nil || !live.Secret {
		return nil
	}
	return in.learnSecret(text.AsString())
}

// learnSecret adds a secret the run learned while it went (a text typed
// into a secret field) and has the journal take it out of what it wrote
// before: run_started holds the inputs, an earlier step may have used it.
// A journal that cannot do so stops the step before it acts.
func (in *Interp) learnSecret(text string) error {
	in.secrets.Add(text)
	if so, ok := in.opts.Observer.(SecretObserver); ok {
		if err := so.SecretLearned(); err != nil {
			return &JournalError{Err: err}
		}
	}
	return nil
}

// SecretObserver is an Observer told when the run learns a secret after it
// may have recorded it (a plain text typed into a password field): it takes
// the secret out of what it kept.
type SecretObserver interface {
	Observer
	SecretLearned() error
}

// SecretLearned implements SecretObserver: the journal is rewritten with
// the secret redacted.
func (r *JournalObserver) SecretLearned() error { return r.W.Rescrub() }

// SecretLearned tells the observers that keep what the run did.
func (m Observers) SecretLearned() error {
	for _, r := range m {
		if so, ok := r.(SecretObserver); ok {
			if err := so.SecretLearned(); err != nil {
				return err
			}
		}
	}
	return nil
}
