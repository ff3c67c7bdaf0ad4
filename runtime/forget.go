package runtime

import (
	"fmt"
	"strings"
	"time"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime/dependency"
)

// usedAnswer is a dependency's answer, with the answerer that gave it.
type usedAnswer struct {
	answerer dependency.Answerer
	dep      *ast.Dependency
	answer   *dependency.Answer
}

// forgetUsed makes the answerers that keep answers forget those a failed
// step used, and returns the step's error, saying so when a cached answer
// was among them: the failure may be the cache's, and --refresh asks every
// dependency again. A answerer that cannot forget costs only the advice.
func (in *Interp) forgetUsed(used []usedAnswer, err error) error {
	var cached []string
	for _, u := range used {
		if f, ok := u.answerer.(dependency.Forgetter); ok && u.answer.CacheKey != "" {
			_ = f.Forget(u.answer) // best effort: a failed eviction costs only the advice below
		}
		if u.answer.Cached {
			at := "an unknown time"
			if !u.answer.CachedAt.IsZero() {
				at = u.answer.CachedAt.UTC().Format(time.DateTime + " UTC")
			}
			if len(used) > 1 {
				at += fmt.Sprintf(" for %s<%q>", u.dep.Sub.Name, u.dep.Description.Value)
			}
			cached = append(cached, at)
		}
	}
	switch len(cached) {
	case 0:
		return err
	case 1:
		return fmt.Errorf("%w (answer from the cache, cached at %s; run with --refresh to ask again)", err, cached[0])
	}
	return fmt.Errorf("%w (answers from the cache, cached at %s; run with --refresh to ask again)", err, strings.Join(cached, ", "))
}
