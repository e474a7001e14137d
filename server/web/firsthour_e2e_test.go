package web_test

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
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

// The page as a new user first meets it, against one server that has a
// DM's and a player's token; each part in a browser of its own (a page
// has a minute).
func TestChatPageFirstHour(t *testing.T) {
	exe := browserPath(t)
	tokens, dm, player := signedInTokens(t)
	a := startApp(t, tokens)
	for role, token := range map[string]string{"dm": dm, "player": player} {
		t.Run("role badge, "+role, func(t *testing.T) { roleBadges(t, exe, a, role, token) })
	}
	for _, scheme := range []string{"light", "dark"} {
		t.Run("field focus, "+scheme, func(t *testing.T) { fieldFocus(t, exe, a, scheme, player) })
		t.Run("axe-core, "+scheme, func(t *testing.T) { axeStates(t, exe, a, scheme, player) })
	}
}

// roleBadges checks, for one role, that the header keeps the role badge
// whole at every width, phones' above all: its full name drawn inside the
// screen, nothing over it, in Spanish and in English, with the header's
// every button shown (the DM's Update index and Sign out included); and
// that the page's description follows its language, as its title does.
func roleBadges(t *testing.T, exe string, a app, role, token string) {
	p := newPage(t, exe)
	want := map[string]map[string]string{
		"es": {"dm": "Máster", "player": "Jugador"},
		"en": {"dm": "GM", "player": "Player"},
	}
	es, en := descriptions(t)
	desc := map[string]string{"es": es, "en": en}
	for _, lang := range []string{"es", "en"} {
		p.do(role+", "+lang,
			chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch),
			chromedp.Navigate(a.URL+"/?lang="+lang),
			chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`localStorage.setItem("oraculo.token", %q)`, token)),
			chromedp.Reload(),
		)
		p.waitFor("the badge", sel+`('[data-testid="role"]:not([hidden])') !== null && `+sel+`('[data-testid="question-input"]').offsetParent !== null`)
		if got := p.eval("the description", `document.querySelector('meta[name="description"]').content`); got != desc[lang] {
			t.Errorf("%s: the page's description is %q, want %q", lang, got, desc[lang])
		}
		for _, width := range []int64{1280, 1000, 600, 560, 480, 420, 390, 360} {
			var opts []chromedp.EmulateViewportOption
			if width <= 560 {
				opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
			}
			p.do("resize", chromedp.EmulateViewport(width, 844, opts...))
			p.waitFor("the resize", fmt.Sprintf(`window.innerWidth === %d`, width))
			p.checkBadge(fmt.Sprintf("%d px, %s, %s", width, role, lang), want[lang][role], role == "dm")
		}
		p.saveScreenshot("role-360-" + role + "-" + lang)
	}
}

// checkBadge checks the role badge as the page draws it now: it says
// want, whole and inside the screen, beside the title and before the
// header's buttons, the DM's among them when dm.
func (p *page) checkBadge(name, want string, dm bool) {
	t := p.t
	t.Helper()
	var b badgeBox
	if err := json.Unmarshal([]byte(p.eval("the badge", badgeBoxJS)), &b); err != nil {
		t.Fatal(err)
	}
	if b.Text != want || b.Hidden {
		t.Errorf("%s: the badge says %q (hidden %v), want %q", name, b.Text, b.Hidden, want)
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
	if dm && p.eval("the DM's buttons", sel+`('[data-testid="update-index"]').hidden || `+sel+`('[data-testid="sign-out"]').hidden ? "hidden" : "shown"`) != "shown" {
		t.Errorf("%s: the DM's Update index or Sign out is hidden", name)
	}
}

// fieldStyleJS measures the focused element and the colours it is compared
// with: the page's accent and its error colour (the sign-in's error line).
const fieldStyleJS = `(() => {
	const f = document.activeElement, s = getComputedStyle(f);
	const probe = document.createElement("span");
	probe.style.color = "var(--accent)";
	document.body.append(probe);
	const accent = getComputedStyle(probe).color;
	probe.remove();
	return JSON.stringify({
		Field: f.dataset.testid || f.id, Invalid: f.getAttribute("aria-invalid") || "",
		OutlineStyle: s.outlineStyle, OutlineWidth: parseFloat(s.outlineWidth),
		Outline: s.outlineColor, Border: s.borderTopColor,
		Accent: accent, Error: getComputedStyle(document.querySelector('[data-testid="signin-error"]')).color,
	});
})()`

// fieldStyle is what fieldStyleJS measures.
type fieldStyle struct {
	Field, Invalid  string
	OutlineStyle    string
	OutlineWidth    float64
	Outline, Border string
	Accent, Error   string
}

// fieldFocus checks, in one colour scheme, that a focused field is ringed
// in the page's accent, as the composer is, not in a colour that reads as
// an error: the ring is visible (WCAG 2.4.7) and far in hue from the
// error's red, and a field in error keeps its red border under the ring.
func fieldFocus(t *testing.T, exe string, a app, scheme, player string) {
	p := newPage(t, exe)
	p.colorScheme(scheme)
	measure := func(what, field string) fieldStyle {
		t.Helper()
		p.waitFor(what, `document.activeElement && document.activeElement.matches(`+fmt.Sprintf("%q", field)+`)`)
		var s fieldStyle
		if err := json.Unmarshal([]byte(p.eval(what, fieldStyleJS)), &s); err != nil {
			t.Fatal(err)
		}
		if s.OutlineStyle == "none" || s.OutlineWidth < 2 {
			t.Errorf("%s: no visible focus ring: outline %s %vpx", what, s.OutlineStyle, s.OutlineWidth)
		}
		if s.Outline != s.Accent {
			t.Errorf("%s: the focus ring is %s, want the accent %s", what, s.Outline, s.Accent)
		}
		if d := hueDistance(t, s.Outline, s.Error); d < 60 {
			t.Errorf("%s: the focus ring %s is %.0f° in hue from the error colour %s: it reads as an error", what, s.Outline, d, s.Error)
		}
		return s
	}
	p.do("load the page, signed out",
		chromedp.Navigate(a.URL+"/?lang=en"),
		chromedp.Evaluate[chromedp.Void](`localStorage.clear()`),
		chromedp.Reload(),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="token-input"]`)),
		// A new headless tab has no focus until it is used.
		chromedp.Click(chromedp.CSS(`[data-testid="token-input"]`)),
	)
	measure(scheme+": the token field", `[data-testid="token-input"]`)

	p.do("a wrong token",
		chromedp.SendKeys(chromedp.CSS(`[data-testid="token-input"]`), "orc_wrong"),
		chromedp.Click(chromedp.CSS(`[data-testid="token-submit"]`)),
	)
	p.waitFor("the error", sel+`('[data-testid="signin-error"]:not([hidden])') !== null`)
	p.do("focus the field", chromedp.Focus(chromedp.CSS(`[data-testid="token-input"]`)))
	s := measure(scheme+": the token field in error", `[data-testid="token-input"]`)
	if s.Invalid != "true" || s.Border != s.Error {
		t.Errorf("%s: the field in error has aria-invalid %q and a %s border, want true and the error's %s", scheme, s.Invalid, s.Border, s.Error)
	}

	p.do("the right token",
		chromedp.SendKeys(chromedp.CSS(`[data-testid="token-input"]`), player),
		chromedp.Click(chromedp.CSS(`[data-testid="token-submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="timeline-find"] input`)),
	)
	if got := p.eval("the error gone", sel+`('[data-testid="token-input"]').getAttribute("aria-invalid") || "none"`); got != "none" {
		t.Errorf("%s: signed in, the token field is still marked invalid (%q)", scheme, got)
	}
	p.do("focus the timeline's field", chromedp.Focus(chromedp.CSS(`[data-testid="timeline-find"] input`)))
	measure(scheme+": the timeline's field", `[data-testid="timeline-find"] input`)
}

// hueDistance is how far apart in hue, in degrees, two CSS rgb() colours are.
func hueDistance(t *testing.T, a, b string) float64 {
	t.Helper()
	d := math.Abs(hue(t, a) - hue(t, b))
	return math.Min(d, 360-d)
}

func hue(t *testing.T, css string) float64 {
	t.Helper()
	var r, g, b float64
	if _, err := fmt.Sscanf(strings.NewReplacer("rgba(", "", "rgb(", "", ",", " ", ")", " ").Replace(css), "%f %f %f", &r, &g, &b); err != nil {
		t.Fatalf("colour %q: %v", css, err)
	}
	hi, lo := math.Max(r, math.Max(g, b)), math.Min(r, math.Min(g, b))
	if hi == lo {
		return 0
	}
	var h float64
	switch hi {
	case r:
		h = math.Mod((g-b)/(hi-lo), 6)
	case g:
		h = (b-r)/(hi-lo) + 2
	default:
		h = (r-g)/(hi-lo) + 4
	}
	return math.Mod(h*60+360, 360)
}

// colorScheme makes the page's prefers-color-scheme light or dark.
func (p *page) colorScheme(scheme string) {
	p.t.Helper()
	if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
	}); err != nil {
		p.t.Fatalf("emulating a %s colour scheme: %v", scheme, err)
	}
}
