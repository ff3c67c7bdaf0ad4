package check

import (
	"slices"

	"github.com/cogflow/cogflow/lang/ast"
)

// skillNamed returns the skill a call of name runs in the code being
// checked: the file's own, else the library skill of the driver that runs
// it (Env.Skills), else nil. A library skill is checked once per driver,
// in the same Info, so that the interpreter finds the types of its steps.
func (c *checker) skillNamed(name string) *skillInfo {
	if s := c.skills[name]; s != nil {
		return s
	}
	if c.env.Skills == nil || c.drv == "" {
		return nil
	}
	key := c.drv + "\x00" + name
	if s, ok := c.libSkills[key]; ok {
		return s
	}
	decl := c.env.Skills.Skill(c.drv, name)
	if decl == nil {
		return nil
	}
	if _, isAction := Actions[name]; isAction {
		return nil // a library cannot redefine an action either
	}
	s := &skillInfo{decl: decl, driver: c.drv}
	if c.libSkills == nil {
		c.libSkills = map[string]*skillInfo{}
	}
	c.libSkills[key] = s
	if c.info.LibrarySkills == nil {
		c.info.LibrarySkills = map[string]*ast.Skill{}
	}
	if c.info.LibrarySkills[name] == nil {
		c.info.LibrarySkills[name] = decl
	}
	if c.info.LibraryByDriver == nil {
		c.info.LibraryByDriver = map[string]map[string]*ast.Skill{}
	}
	if c.info.LibraryByDriver[c.drv] == nil {
		c.info.LibraryByDriver[c.drv] = map[string]*ast.Skill{}
	}
	c.info.LibraryByDriver[c.drv][name] = decl
	return s
}

// libraryReach notes that the code being checked calls s, a library skill
// or a file's skill that calls one, and refuses a task whose driver is
// not the file's calling such a file skill: its body was checked, and its
// library skills resolved, under the file's driver (fileDriver). It also
// refuses a file's skill that a library skill's body would run in place of
// the library's own skill of that name.
func (c *checker) libraryReach(e *ast.Call, s *skillInfo) {
	name := s.decl.Name.Name
	if cur := c.inSkill; cur != nil && cur.driver != "" && s.driver == "" && c.env.Skills.Skill(cur.driver, name) != nil {
		// The interpreter finds skills by name: the file's would run in
		// place of the one the library skill was written against.
		c.diags.Errorf(s.decl.Name.Range, "skill %s hides the %s library's skill %s, which library skill %s calls; give it another name",
			name, cur.driver, name, cur.decl.Name.Name)
	}
	reach := s.libCall
	if s.driver != "" {
		reach = name
	}
	if reach == "" {
		return
	}
	if cur := c.inSkill; cur != nil {
		if cur.driver == "" && cur.libCall == "" {
			cur.libCall = reach
		}
		return
	}
	if s.driver == "" && c.drv != "" && c.drv != c.fileDrv {
		c.diags.Errorf(e.Fun.Rng(), "skill %s calls library skill %s of the %s driver, which runs the file's first task; this task runs on %s: move the task to a file of its own",
			name, reach, c.fileDrv, c.driverOrNone())
	}
}

// otherDriverSkill reports a call of a skill that only other drivers'
// libraries have: the driver running the code lacks it. It returns false
// when no library has the name.
func (c *checker) otherDriverSkill(ref *ast.Ref) bool {
	if c.env.Skills == nil {
		return false
	}
	drivers := c.env.Skills.DriversOf(ref.Name)
	if len(drivers) == 0 || slices.Contains(drivers, c.drv) {
		return false
	}
	d := c.diags.Errorf(ref.Range, "skill %s is in the %s skill library; the %s driver lacks it", ref.Name, orList(drivers), c.driverOrNone())
	hint(d, ref.Name, c.env.Skills.Names(c.drv))
	return true
}

func (c *checker) driverOrNone() string {
	if c.drv == "" {
		return "task's"
	}
	return c.drv
}

// libraryNames are the library skills the code being checked may call,
// for "did you mean".
func (c *checker) libraryNames() []string {
	if c.env.Skills == nil || c.drv == "" {
		return nil
	}
	return c.env.Skills.Names(c.drv)
}

// fileDriver is the driver of the file's first task that names one: the
// driver a file's own skills run under, since a skill has no driver
// statement of its own.
func fileDriver(f *ast.File) string {
	for _, d := range f.Decls {
		if t, ok := d.(*ast.Task); ok {
			for _, s := range t.Body.Stmts {
				if dd, ok := s.(*ast.DriverDecl); ok {
					return dd.Name.Name
				}
			}
		}
	}
	return ""
}
