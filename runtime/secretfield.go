package runtime

import (
	"github.com/cogflow/cogflow/lang/check"
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
