"""skipstone.plot (python3 -m skipstone.plot, skipstone plot): one valid PNG or PDF per
observable, titles naming the parameters that differ from the defaults, line plots, heat maps
and small multiples by the number of axes, and exit 2 for a bad observable or option."""
import matplotlib.pyplot as plt
import pytest

import skipstone
from conftest import cli, example
from skipstone._plot_figure import Style, figure
from skipstone.plot import PlotError, plot

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def figure18(tmp_path_factory):
    out = tmp_path_factory.mktemp("plot") / "figure18"
    skipstone.run(example("figure18", grid=[24, 16]), out=out, overrides={"parameters.eta": 0.3})
    return out


def test_every_observable_as_png_and_pdf(figure18, tmp_path):
    written = plot(figure18, out=tmp_path, formats=("png", "pdf"))
    observables = skipstone.load(figure18).meta["config"]["observables"]
    assert sorted(written) == sorted(str(tmp_path / f"{o}.{f}") for o in observables for f in ("png", "pdf"))
    for o in observables:
        assert (tmp_path / f"{o}.png").read_bytes().startswith(PNG)
        pdf = (tmp_path / f"{o}.pdf").read_bytes()
        assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")


def test_title_names_the_differing_parameters(figure18):
    fig = figure(skipstone.load(figure18), "exit_time", Style())
    title = fig.axes[0].get_title()
    assert "exit_time" in title and r"$\eta$ = 0.3" in title
    assert fig.axes[0].get_xlabel() == "$v_2$"
    plt.close(fig)


def test_categorical_maps_have_a_legend_of_names(figure18):
    fig = figure(skipstone.load(figure18), "status", Style())
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert "exited" in labels and "masked" in labels
    plt.close(fig)


@pytest.mark.parametrize("grid, panels", [([12], 1), ([6, 5, 3], 3)])
def test_one_axis_is_a_line_three_axes_small_multiples(tmp_path, grid, panels):
    config = example("stadium", grid=grid[:2])
    if len(grid) == 1:
        config["scan"]["axes"] = config["scan"]["axes"][:1]
    else:
        config["scan"]["axes"].append({"param": "half_length", "min": 0.5, "max": 1.0, "n": grid[2]})
        del config["parameters"]["half_length"]
    r = skipstone.run(config)
    fig = figure(r, "t_end", Style())
    drawn = [ax for ax in fig.axes if ax.get_visible() and ax.get_label() != "<colorbar>"]
    assert len(drawn) == panels
    assert len(drawn[0].get_lines()) == (1 if panels == 1 else 0)
    plt.close(fig)


def test_bad_observable_and_options(figure18):
    with pytest.raises(PlotError, match="no_such"):
        plot(figure18, observables=["no_such"])
    with pytest.raises(PlotError, match="--cmap"):
        plot(figure18, cmap="no_such_map")
    with pytest.raises(PlotError, match="--log"):
        plot(figure18, observables=["status"], log=True)
    done = cli("plot", figure18, "--observable", "no_such", check=False)
    assert done.returncode == 2 and "allowed: status, exit_time" in done.stderr


def test_the_cli_subcommand_writes_the_figures(figure18, tmp_path):
    done = cli("plot", figure18, "--observable", "exit_side", "--format", "pdf", "--out", tmp_path)
    assert (tmp_path / "exit_side.pdf").read_bytes().startswith(b"%PDF-"), done.stdout
