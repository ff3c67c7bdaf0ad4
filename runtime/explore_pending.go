package runtime

import (
	"context"
	"errors"
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/cogflow/cogflow/lang/ast"
)

// Until an explorer is wired into the interpreter, an explore block and an
// explore<…> dependency fail with a clear error rather than run their
// steps as if nothing were asked, or have a model pick an element on the
// current screen. The explorer's own files replace these two functions.

// ErrNoExplorer says that exploring is not available to this run.
var ErrNoExplorer = errors.New("needs an explorer, and this cogflow runs none yet")

// exploreBlock runs an explore block.
func (in *Interp) exploreBlock(_ context.Context, s *ast.ExploreStmt) error {
	return StopsRun(fmt.Errorf("%s: explore %q: %w", s.Range, s.Goal.Value, ErrNoExplorer))
}

// exploreDependency answers an explore<…> dependency.
func (in *Interp) exploreDependency(_ context.Context, e *ast.Dependency) (cty.Value, error) {
	return cty.NilVal, StopsRun(fmt.Errorf("explore<%q> %w", e.Description.Value, ErrNoExplorer))
}
