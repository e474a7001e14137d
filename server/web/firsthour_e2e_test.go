package web_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/server"
)

// badgeBox is where the role badge is drawn, as the browser measures it.
type badgeBox struct {
	Text                     string
	Hidden                   bool
	ScrollWidth, ClientWidth float64
	Left, Right, Top, Bottom float64
	ViewWidth, ViewHeight    float64
	Covered                  bool    // another element is drawn over its middle
	TitleRight, ActionsLeft  float64 // the title's right edge, the header's buttons' left one
}

const badgeBoxJS = `(() => {
	const b = document.querySelector('[data-testid="role"]');
	const r = b.getBoundingClientRect();
	const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
	return JSON.stringify({
		Text: b.textContent, Hidden: b.hidden || b.offsetParent === null,
		ScrollWidth: b.scrollWidth, ClientWidth: b.clientWidth,
		Left: r.left, Right: r.right, Top: r.top, Bottom: r.bottom,
		ViewWidth: window.innerWidth, ViewHeight: window.innerHeight,
		Covered: hit !== b && !b.contains(hit),
		TitleRight: document.querySelector('.brand h1').getBoundingClientRect().right,
		ActionsLeft: document.querySelector('.top-actions').getBoundingClientRect().left,
	});
})()`

// signedInTokens makes a DM's and a player's token, and the tokens file
// that holds them.
func signedInTokens(t *testing.T) (tokens *server.Tokens, dm, player string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "tokens.json")
	dm, err := server.AddToken(file, "dm", oraculo.RoleDM)
	if err != nil {
		t.Fatal(err)
	}
	player, err = server.AddToken(file, "lyra", oraculo.RolePlayer)
	if err != nil {
		t.Fatal(err)
	}
	tokens, err = server.LoadTokens(file)
	if err != nil {
		t.Fatal(err)
	}
	return tokens, dm, player
}

// On a phone the header keeps the role badge whole: its full name is
// drawn inside the screen, nothing over it, for either role, in Spanish
// and in English, with the header's every button shown (the DM's Update
// index and Sign out included).
func TestChatPageRoleBadgeOnPhone(t *testing.T) {
	exe := browserPath(t)
	tokens, dm, player := signedInTokens(t)
	a := startApp(t, tokens)
	p := newPage(t, exe)
	want := map[string]map[string]string{
		"es": {"dm": "Máster", "player": "Jugador"},
		"en": {"dm": "GM", "player": "Player"},
	}
	for _, width := range []int64{390, 360} {
		for role, token := range map[string]string{"dm": dm, "player": player} {
			for _, lang := range []string{"es", "en"} {
				name := fmt.Sprintf("%d px, %s, %s", width, role, lang)
				p.do(name,
					chromedp.EmulateViewport(width, 844, chromedp.EmulateMobile, chromedp.EmulateTouch),
					chromedp.Navigate(a.URL+"/?lang="+lang),
					chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`localStorage.setItem("oraculo.token", %q)`, token)),
					chromedp.Reload(),
				)
				p.waitFor("the "+name+" badge", sel+`('[data-testid="role"]:not([hidden])') !== null && `+sel+`('[data-testid="question-input"]').offsetParent !== null`)
				var b badgeBox
				if err := json.Unmarshal([]byte(p.eval("the badge", badgeBoxJS)), &b); err != nil {
					t.Fatal(err)
				}
				if b.Text != want[lang][role] || b.Hidden {
					t.Errorf("%s: the badge says %q (hidden %v), want %q", name, b.Text, b.Hidden, want[lang][role])
				}
				if b.ScrollWidth > b.ClientWidth {
					t.Errorf("%s: the badge %q is clipped: %v px of text in %v px", name, b.Text, b.ScrollWidth, b.ClientWidth)
				}
				if b.Left < 0 || b.Top < 0 || b.Right > b.ViewWidth || b.Bottom > b.ViewHeight || b.Covered {
					t.Errorf("%s: the badge is drawn at %+v, not wholly inside the %vx%v screen (or covered)", name, b, b.ViewWidth, b.ViewHeight)
				}
				if b.TitleRight > b.ActionsLeft || b.Right > b.ActionsLeft {
					t.Errorf("%s: the title (to %v px) or the badge (to %v px) runs under the header's buttons (from %v px)", name, b.TitleRight, b.Right, b.ActionsLeft)
				}
				t.Logf("%s: title to %.1f, badge to %.1f, buttons from %.1f", name, b.TitleRight, b.Right, b.ActionsLeft)
				if got := p.eval("horizontal scroll", hScrollExpr); got != "0" {
					t.Errorf("%s: the page scrolls sideways by %s px", name, got)
				}
				if role == "dm" && p.eval("the DM's buttons", sel+`('[data-testid="update-index"]').hidden || `+sel+`('[data-testid="sign-out"]').hidden ? "hidden" : "shown"`) != "shown" {
					t.Errorf("%s: the DM's Update index or Sign out is hidden", name)
				}
			}
		}
	}
	t.Logf("screenshot: %s", p.saveScreenshot("role-phone"))
}
