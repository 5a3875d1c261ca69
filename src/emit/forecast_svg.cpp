// The forecast's schedule drawn: nodes down, time across.
#include <jobspec/forecast_text.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include <jobspec/fluid.hpp>
#include <jobspec/text.hpp>

namespace jobspec {

namespace {

constexpr std::size_t max_rows = 256;
constexpr double row_height = 18;
constexpr double label_width = 120;
constexpr double chart_width = 720;
constexpr double top_margin = 30;

/// Text for SVG: escaped for XML, and for a terminal should it be shown as text.
std::string xml(std::string_view text) {
    std::string out;
    for (const char c : visible_text(text)) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

struct Bar {
    std::uint64_t id;
    double start;
    std::optional<double> end;
    IdSet ranks;
    bool running;
    Verdict verdict;
};

std::string_view colour(const Bar& b) {
    if (b.running)
        return "#9e9e9e";
    switch (b.verdict) {
    case Verdict::next:
        return "#43a047";
    case Verdict::waiting:
        return "#1e88e5";
    default:
        return "#fb8c00";
    }
}

} // namespace

std::string forecast_svg(const Forecast& forecast, const InstanceState& s,
                         const ForecastTextOptions& o) {
    std::vector<Bar> bars;
    for (const auto& r : s.running)
        bars.push_back({r.id, forecast.now, r.end, r.r.ranks(), true, Verdict::next});
    for (const auto& f : forecast.jobs)
        if (f.start)
            bars.push_back({f.id, *f.start, f.end, f.nodes, false, f.verdict});
    // The time drawn: up to the last end (or start) the forecast knows, at least a minute.
    double last = forecast.now + 60;
    for (const auto& b : bars)
        last = std::max(last, b.end.value_or(b.start));
    last += (last - forecast.now) * 0.05;
    const auto x = [&](double t) {
        return label_width + chart_width * (std::clamp(t, forecast.now, last) - forecast.now) /
                                 (last - forecast.now);
    };
    // The rows: nodes the bars use and the down ones, in rank order, at most max_rows.
    std::set<std::uint64_t> used;
    for (const auto& b : bars)
        for (const auto r : b.ranks)
            used.insert(r);
    for (const auto r : s.down)
        used.insert(r);
    std::map<std::uint64_t, std::size_t> row;
    for (const auto r : used) {
        if (row.size() == max_rows)
            break;
        row.emplace(r, row.size());
    }
    const std::size_t more = used.size() - row.size();
    const double height = top_margin + row_height * static_cast<double>(row.size()) + 40;
    // With a viewBox, a page that narrows the picture scales it rather than cutting it.
    std::string out = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
        "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" font-size=\"11\">\n",
        label_width + chart_width + 20, height);
    out += fmt::format("<text x=\"4\" y=\"16\" font-size=\"12\">{} from {:.0f}: {} job{}"
                       " pending{}</text>\n",
                       xml(s.scheduler.name), forecast.now, forecast.jobs.size(),
                       forecast.jobs.size() == 1 ? "" : "s",
                       more > 0 ? fmt::format(", {} more nodes not drawn", more) : "");
    for (const auto& [rank, i] : row) {
        const double y = top_margin + row_height * static_cast<double>(i);
        const Hostlist names = s.all.filtered(IdSet::range(rank, rank)).nodelist();
        const std::string name = names.empty() ? fmt::format("rank {}", rank) : names.encode();
        const bool down = s.down.contains(rank);
        out += fmt::format("<text x=\"4\" y=\"{}\"{}>{}</text>\n", y + 13,
                           down ? " fill=\"#c62828\"" : "",
                           xml(name + (down ? (s.drained.count(rank) ? " (drained)" : " (down)")
                                            : "")));
        out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>\n",
                           label_width, y + 1, chart_width, row_height - 2,
                           down ? "#ffebee" : "#f5f5f5");
    }
    for (const auto& b : bars) {
        const double x0 = x(b.start);
        const double x1 = b.end ? x(*b.end) : label_width + chart_width;
        const std::string id =
            encode_fluid(b.id, o.ascii_ids ? FluidEncoding::f58plain : FluidEncoding::f58);
        for (const auto r : b.ranks) {
            const auto it = row.find(r);
            if (it == row.end())
                continue;
            const double y = top_margin + row_height * static_cast<double>(it->second);
            out += fmt::format(
                "<rect x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" height=\"{}\" fill=\"{}\" "
                "stroke=\"#ffffff\"><title>{}</title></rect>\n",
                x0, y + 2, std::max(1.0, x1 - x0), row_height - 4, colour(b), xml(id));
            if (x1 - x0 > 40)
                out += fmt::format("<text x=\"{:.1f}\" y=\"{}\" fill=\"#ffffff\">{}</text>\n",
                                   x0 + 3, y + 13, xml(id));
        }
    }
    const double axis = top_margin + row_height * static_cast<double>(row.size()) + 14;
    for (int i = 0; i <= 4; ++i) {
        const double t = forecast.now + (last - forecast.now) * i / 4;
        // The last label ends at the chart's edge, inside the picture.
        out += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"{}\">+{:.0f} s</text>\n",
                           x(t), axis, i == 4 ? "end" : "middle", t - forecast.now);
    }
    out += "</svg>\n";
    return out;
}

} // namespace jobspec
