import Foundation
import SceneGraph

extension SceneReport {
    /// The report's own colours, light and dark (`prefers-color-scheme`); layer kinds in the
    /// colours of `RenderOverlay.colour(of:)`, as `--overlay layers` outlines them.
    static let stylesheet: String = {
        let kinds = RenderStats.LayerKind.allCases.map { ".kind-\($0.rawValue){fill:\(RenderOverlay.colour(of: $0).hexString)}" }.joined()
        let phaseColours = ["#5E5CE6", "#0A84FF", "#64D2FF", "#30B158", "#FF9F0A", "#FF375F", "#BF5AF2"]
        let phases = zip(RenderStats.phases, phaseColours).map { ".chart .phase-\($0.0){fill:\($0.1)}" }.joined()
        return """
        :root{--bg:#fff;--fg:#1d1d1f;--muted:#5f5f66;--line:#d2d2d7;--panel:#f2f2f5;--accent:#0a5fcc;--hl:#e0007a;--bar:#0a6fe0;--row:#fff1b8}
        @media (prefers-color-scheme:dark){:root{--bg:#18181a;--fg:#f2f2f7;--muted:#a8a8ae;--line:#3a3a3e;--panel:#26262a;--accent:#6aabff;--hl:#ff5cb0;--bar:#4aa0ff;--row:#4a3e10}}
        *{box-sizing:border-box}
        body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Inter,sans-serif}
        main{max-width:1180px;margin:0 auto;padding:16px 24px 64px}
        h1{font-size:1.6em;margin:.3em 0 .1em}
        h2{font-size:1.2em;margin:1.4em 0 .5em;padding-bottom:.2em;border-bottom:1px solid var(--line)}
        h3{font-size:1em}
        .sub,.muted,.none{color:var(--muted)}.muted{font-size:.85em}
        code,.mono{font-family:ui-monospace,"JetBrains Mono","DejaVu Sans Mono",monospace;font-size:.88em}
        .mono{white-space:nowrap}
        .scroller{overflow-x:auto}
        td.kind{white-space:nowrap}
        .warnings code,.problem pre{overflow-wrap:anywhere}
        .sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
        .numbers{display:grid;grid-template-columns:repeat(auto-fill,minmax(124px,1fr));gap:6px;margin:0}
        .numbers div{background:var(--panel);border-radius:6px;padding:4px 10px}
        dt{color:var(--muted);font-size:.85em}dd{margin:0;font-size:1.1em;font-variant-numeric:tabular-nums}
        .render{overflow-x:auto}
        .stage{position:relative;margin:12px 0;width:var(--points);max-width:100%;background:repeating-conic-gradient(#c8c8c8 0 25%,#fff 0 50%) 0 0/16px 16px}
        #show-actual:checked~.stage{width:var(--pixels);max-width:none}
        .stage img{display:block;width:100%;height:auto;image-rendering:auto}
        #show-actual:checked~.stage img{image-rendering:pixelated}
        .stage svg{position:absolute;inset:0;width:100%;height:100%;overflow:visible}
        #overlay-offscreen,#overlay-layers{display:none}
        #show-offscreen:checked~.stage #overlay-offscreen,#show-layers:checked~.stage #overlay-layers{display:inline}
        .off{display:none}
        .hl{fill:none;stroke:var(--hl);stroke-width:2px;vector-effect:non-scaling-stroke}
        .hl-under{fill:var(--hl);fill-opacity:.12;stroke:#fff;stroke-width:5px;vector-effect:non-scaling-stroke}
        .legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:4px 16px;font-size:.85em}
        .swatch{display:inline-block;width:.8em;height:.8em;border-radius:2px;margin-right:.4em;vertical-align:-.05em}
        table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
        th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}
        thead th{font-size:.85em;color:var(--muted);font-weight:600}
        .num{text-align:right}
        table.effects{width:auto}
        .layers tbody tr{cursor:default}
        .layers tbody tr:hover,.layers tbody tr.active{background:var(--row)}
        .layers tbody tr:focus{outline:2px solid var(--accent);outline-offset:-2px}
        .problem{border:2px solid #d70015;border-radius:8px;padding:0 16px;margin:12px 0;background:color-mix(in srgb,#d70015 9%,var(--bg))}
        .problem h2{border:0;margin-top:.6em}
        pre{overflow-x:auto;font-size:.85em;background:var(--panel);padding:10px;border-radius:6px}
        .problem pre{white-space:pre-wrap}
        .chart{width:100%;max-width:980px;height:auto;display:block}
        .chart text{fill:var(--fg);font-size:12px}.chart .tick{fill:var(--muted);font-size:11px}
        .chart .bar{fill:var(--bar)}.axis{stroke:var(--muted);stroke-width:1}
        .span.render{fill:#8e8e93}.span.layer{fill-opacity:.85}
        .chart .inbar{fill:#fff;font-size:11px;pointer-events:none}
        \(phases)\(kinds)
        .plots{display:grid;grid-template-columns:repeat(auto-fill,minmax(340px,1fr));gap:12px}
        .series{fill:none;stroke:var(--bar);stroke-width:2}.dot{fill:var(--bar)}
        .filmstrip{list-style:none;padding:0;display:flex;gap:8px;overflow-x:auto}
        .filmstrip figure{margin:0}
        .filmstrip img{display:block;height:96px;width:auto;border:1px solid var(--line);background:repeating-conic-gradient(#c8c8c8 0 25%,#fff 0 50%) 0 0/12px 12px}
        figcaption{font-size:.8em;color:var(--muted);text-align:center}
        summary{cursor:pointer;color:var(--accent)}
        :focus-visible{outline:2px solid var(--accent)}
        """
    }()

    /// Hovering or focusing a layer row outlines its bounds on the render (`#highlight`, its
    /// `data-layer` the row's index); `#layer-N` in the address focuses row N; the arrow keys
    /// move between rows. A served page (`data-version` on the body) long-polls `/wait` and
    /// replaces its `main` with the server's new page, keeping the toggles.
    static let script = """
    (()=>{
    const hl=()=>document.getElementById('highlight');
    function show(row){const g=hl();if(!g)return;const b=row.dataset.bounds.split(',').map(Number);
    for(const r of g.querySelectorAll('rect')){r.setAttribute('x',b[0]);r.setAttribute('y',b[1]);r.setAttribute('width',b[2]);r.setAttribute('height',b[3]);}
    g.classList.remove('off');g.dataset.layer=row.id?row.id.slice(6):'cached';
    document.querySelectorAll('tr.active').forEach(r=>r.classList.remove('active'));row.classList.add('active');}
    function hide(row){row.classList.remove('active');const g=hl();if(g&&!document.querySelector('tr.active')){g.classList.add('off');delete g.dataset.layer;}}
    const rowOf=e=>e.target&&e.target.closest?e.target.closest('tr[data-bounds]'):null;
    document.addEventListener('mouseover',e=>{const r=rowOf(e);if(r)show(r);});
    document.addEventListener('mouseout',e=>{const r=rowOf(e);if(r&&!(e.relatedTarget&&r.contains(e.relatedTarget))&&document.activeElement!==r)hide(r);});
    document.addEventListener('focusin',e=>{const r=rowOf(e);if(r)show(r);});
    document.addEventListener('focusout',e=>{const r=rowOf(e);if(r)hide(r);});
    document.addEventListener('keydown',e=>{const r=rowOf(e);if(!r)return;const rows=[...r.parentElement.querySelectorAll('tr[data-bounds]')];const i=rows.indexOf(r);
    const n={ArrowDown:rows[i+1],ArrowUp:rows[i-1],Home:rows[0],End:rows[rows.length-1]}[e.key];if(n){n.focus();e.preventDefault();}});
    function fromHash(){const id=decodeURIComponent(location.hash.slice(1));const r=id&&document.getElementById(id);if(r&&r.matches('tr[data-bounds]')){r.focus();show(r);}}
    window.addEventListener('hashchange',fromHash);fromHash();
    const body=document.body;if(body.dataset.version===undefined)return;
    const sleep=ms=>new Promise(r=>setTimeout(r,ms));
    (async()=>{for(;;){try{
    const res=await fetch('/wait?version='+body.dataset.version,{cache:'no-store'});
    if(!res.ok){await sleep(1000);continue;}
    const v=await res.json();if(String(v.version)===body.dataset.version)continue;
    const doc=new DOMParser().parseFromString(await (await fetch('/',{cache:'no-store'})).text(),'text/html');
    const fresh=doc.getElementById('report');if(!fresh){await sleep(500);continue;}
    const toggles=[...document.querySelectorAll('input.toggle')].map(i=>[i.id,i.checked]);
    document.getElementById('report').replaceWith(document.adoptNode(fresh));
    for(const [id,c] of toggles){const i=document.getElementById(id);if(i)i.checked=c;}
    body.dataset.version=doc.body.dataset.version;document.title=doc.title;fromHash();
    }catch(e){await sleep(1000);}}})();
    })();
    """
}
