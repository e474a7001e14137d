package memory

import (
	"errors"
	"fmt"
	"strings"

	"github.com/oraculo/oraculo/store"
)

// ErrForbidden is returned when the asker may not make the change: a
// player verifying, or writing outside their own scope.
var ErrForbidden = errors.New("not allowed for this role")

// Asker is who reads or changes memory.
type Asker struct {
	// Player is true for a player, false for the DM.
	Player bool
	// Role is the asker's role as a statement's source names it ("dm",
	// "player"), and the author of a change when nothing names one.
	Role string
	// Name is a player's name, "" for the DM or a player without one.
	Name string
}

// OwnScope is the asker's own player scope, "" when they have none.
func (a Asker) OwnScope() string {
	if a.Player && a.Name != "" {
		return "player:" + a.Name
	}
	return ""
}

// MayWrite checks that the asker may change an entry of scope: the DM
// any, a player only their own, and only as a hypothesis.
func (a Asker) MayWrite(scope string, verified bool) error {
	if !a.Player {
		return nil
	}
	own := a.OwnScope()
	if own == "" || scope != own {
		return fmt.Errorf("memory scope %q: a player may write only in their own scope (%s): %w", scope, orNone(own), ErrForbidden)
	}
	if verified {
		return fmt.Errorf("memory: only the DM verifies entries: %w", ErrForbidden)
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// Author is who makes a change: given, else the player's name, else the
// role. A player is always themselves: the name is not theirs to choose.
func (a Asker) Author(given string) string {
	if a.Player {
		if a.Name != "" {
			return a.Name
		}
		return a.Role
	}
	if given = strings.TrimSpace(given); given != "" {
		return given
	}
	return a.Role
}

// RememberScope is the scope something the asker asks to remember goes
// to: the campaign for the DM, player:NAME for a player with a name;
// false for a player without one, who has no scope to write in.
func (a Asker) RememberScope() (string, bool) {
	if !a.Player {
		return store.MemoryCampaign, true
	}
	own := a.OwnScope()
	return own, own != ""
}
