/// The inline style sheet: one file to open, print or mail, nothing loaded from anywhere.
extension ReportHTML {
  static let css = """
    @page { size: A4; margin: 14mm 14mm 16mm; }
    :root { --ink: #24292f; --muted: #6a737d; --rule: #d8dee4; --band: #f5f7f9;
      --meal: #3d6a8a; --gap: #d9a25f; --met: #5f8f6e; --bar: #8fa9bf;
      --short: #7a6bb8; }
    * { box-sizing: border-box; }
    body { margin: 0; background: #fff; color: var(--ink);
      font: 14px/1.5 "Helvetica Neue", Helvetica, Arial, "Liberation Sans", "DejaVu Sans", sans-serif; }
    main { max-width: 900px; margin: 0 auto; padding: 32px 28px 40px; }
    header { border-bottom: 1px solid var(--rule); padding-bottom: 12px; margin-bottom: 8px; }
    h1 { font-size: 24px; font-weight: 600; margin: 0 0 4px; }
    h1 .range, h2 .range { font-weight: 400; color: var(--muted); }
    h2 { font-size: 18px; font-weight: 600; margin: 28px 0 10px; }
    h3 { font-size: 15px; font-weight: 600; margin: 18px 0 4px; }
    .person { font-size: 16px; margin: 0 0 6px; }
    .lead, .small, .daynote, footer { color: var(--muted); }
    .lead { margin: 4px 0; }
    .small { font-size: 12.5px; }
    .daynote { margin: 0 0 6px; font-size: 13px; }
    .none { color: var(--muted); font-style: italic; margin: 2px 0 8px; }
    .offsets { background: var(--band); border-left: 3px solid var(--bar); padding: 8px 12px;
      margin: 10px 0 4px; font-size: 13px; }
    .away-tag { font-size: 11px; color: var(--meal); border: 1px solid var(--bar);
      border-radius: 3px; padding: 0 3px; white-space: nowrap; }
    .flag { color: #a0622a; font-weight: 600; white-space: nowrap; }
    .flag.short { color: #5a4b98; }
    table { border-collapse: collapse; width: 100%; margin: 6px 0 10px; font-size: 13px; }
    th, td { text-align: left; padding: 4px 10px 4px 0; border-bottom: 1px solid var(--rule);
      vertical-align: top; }
    thead th { font-weight: 600; color: var(--muted); font-size: 12px;
      border-bottom: 1px solid #b9c2cb; }
    .n { text-align: right; font-variant-numeric: tabular-nums; }
    .t { white-space: nowrap; font-variant-numeric: tabular-nums; }
    table.meals { table-layout: fixed; }
    .c-time { width: 10em; } .c-meal { width: 9em; } .c-gap { width: 12em; }
    .note { color: #4a535c; padding-left: 18px; }
    tr.flagged td { background: #fbf3e8; }
    tr.flagged.short td { background: #f1eefa; }
    table.facts { width: auto; min-width: 60%; }
    table.facts th { font-weight: 400; color: var(--muted); padding-right: 24px; }
    .period { font-size: 16px; font-weight: 600; margin: 0 0 4px; }
    .figures { display: flex; gap: 8px; margin: 6px 0 10px; }
    .figure { flex: 1; background: var(--band); padding: 8px 10px; }
    .figure .label { display: block; color: var(--muted); font-size: 12px; }
    .figure b { display: block; font-size: 22px; font-weight: 600; }
    .chart { margin: 8px 0 14px; }
    .chart svg { display: block; font-size: 11px; }
    .band { fill: var(--band); }
    .tick { stroke: #e6eaee; stroke-width: 1; }
    .tick.major { stroke: #cfd6dd; }
    .hour, .hour-of-day { fill: var(--muted); text-anchor: middle; font-size: 10.5px; }
    .day { fill: var(--ink); text-anchor: end; font-size: 11.5px; }
    .value { fill: var(--ink); font-size: 11.5px; }
    .nomeals { fill: var(--muted); font-style: italic; text-anchor: middle; font-size: 11px;
      paint-order: stroke; stroke: #fff; stroke-width: 5px; stroke-linejoin: round; }
    .span { stroke: #b7c6d3; stroke-width: 1.5; }
    .meal, .key-meal { fill: var(--meal); stroke: #fff; stroke-width: 1; }
    .meal.away, .key-away { fill: #fff; stroke: var(--meal); stroke-width: 1.8; }
    .gap { fill: var(--gap); fill-opacity: 0.28; stroke: var(--gap); stroke-width: 1; }
    .gap.short { fill: var(--short); stroke: var(--short); stroke-dasharray: 3 2; }
    .gap.far { fill-opacity: 0.5; stroke-width: 2; }
    .gapmark { fill: var(--ink); text-anchor: middle; font-size: 9px; }
    .track { fill: var(--band); }
    .bar, .key-bar { fill: var(--bar); }
    .bar.met, .key-met { fill: var(--met); }
    .target, .key-target { stroke: var(--ink); stroke-width: 2; }
    .legend { display: flex; flex-wrap: wrap; gap: 6px 18px; font-size: 12px; color: var(--muted);
      margin-top: 4px; }
    .legend span { display: inline-flex; align-items: center; gap: 5px; }
    .legend svg.key { display: inline; }
    .day h3 { margin-top: 16px; }
    footer { margin-top: 32px; padding-top: 8px; border-top: 1px solid var(--rule); font-size: 12px; }
    @media print {
      body { font-size: 10pt; }
      main { max-width: none; padding: 0; }
      h2 { margin-top: 16px; }
      th, td { padding-top: 2px; padding-bottom: 2px; }
      .glance { break-before: avoid; page-break-before: avoid; }
      .chart, tr, .day { break-inside: avoid; page-break-inside: avoid; }
      h2, h3 { break-after: avoid; page-break-after: avoid; }
    }

    """
}
