// The shape lowering rules of DESIGN.md, row by row, through the whole pipeline.
#include <doctest/doctest.h>

#include "shape_support.hpp"

using test::first_error;
using test::shape_json;

TEST_CASE("lower - counts") {
    CHECK(shape_json("core") == R"([{"type":"core","count":1}])");
    CHECK(shape_json("core=4") == R"([{"type":"core","count":4}])");
    CHECK(shape_json("core=[4]") == R"([{"type":"core","count":4}])");
    CHECK(shape_json("core=4,9,16,25") == R"([{"type":"core","count":"4,9,16,25"}])");
    CHECK(shape_json("core=1-3,5") == R"([{"type":"core","count":"1-3,5"}])");
    CHECK(shape_json("core=[1,2,3]") == R"([{"type":"core","count":"1-3"}])");
    CHECK(shape_json("core=3-30") ==
          R"([{"type":"core","count":{"min":3,"max":30,"operator":"+","operand":1}}])");
    CHECK(shape_json("core=2+") == R"([{"type":"core","count":{"min":2}}])");
    CHECK(shape_json("core=2+:2") ==
          R"([{"type":"core","count":{"min":2,"operator":"+","operand":2}}])");
    CHECK(shape_json("core=2+:2:*") ==
          R"([{"type":"core","count":{"min":2,"operator":"*","operand":2}}])");
    CHECK(shape_json("core=1-5:2") ==
          R"([{"type":"core","count":{"min":1,"max":5,"operator":"+","operand":2}}])");
    CHECK(shape_json("core=1-4:2:*") ==
          R"([{"type":"core","count":{"min":1,"max":4,"operator":"*","operand":2}}])");
    CHECK(shape_json("core=[1-4:2:*]") ==
          R"([{"type":"core","count":{"min":1,"max":4,"operator":"*","operand":2}}])");
    CHECK(shape_json("core=2-16:2:^") ==
          R"([{"type":"core","count":{"min":2,"max":16,"operator":"^","operand":2}}])");
}

TEST_CASE("lower - counts as strings, the flux-core way") {
    const auto s = jobspec::CountStyle::string;
    CHECK(shape_json("core=3-30", {}, s) == R"([{"type":"core","count":"3-30"}])");
    CHECK(shape_json("core=[1-4:2:*]", {}, s) == R"([{"type":"core","count":"1-4:2:*"}])");
    CHECK(shape_json("core=2+", {}, s) == R"([{"type":"core","count":"2+"}])");
    CHECK(shape_json("core=4,9", {}, s) == R"([{"type":"core","count":"4,9"}])");
    CHECK(shape_json("core=4", {}, s) == R"([{"type":"core","count":4}])");
}

TEST_CASE("lower - slot labels") {
    CHECK(shape_json("slot/core") ==
          R"([{"type":"slot","count":1,"label":"default","with":[{"type":"core","count":1}]}])");
    CHECK(shape_json("slot{x}/core") ==
          R"([{"type":"slot","count":1,"label":"x","with":[{"type":"core","count":1}]}])");
    CHECK(shape_json("slot=2{4GB-node,x}/core") ==
          R"([{"type":"slot","count":2,"label":"4GB-node","exclusive":true,)"
          R"("with":[{"type":"core","count":1}]}])");
    CHECK(shape_json(R"(slot{"my slot"}/core)") ==
          R"([{"type":"slot","count":1,"label":"my slot","with":[{"type":"core","count":1}]}])");
    jobspec::ShapeOptions task;
    task.default_label = "task";
    CHECK(shape_json("slot/core", task) ==
          R"([{"type":"slot","count":1,"label":"task","with":[{"type":"core","count":1}]}])");
    // RFC 46: a slot's braces hold its label first; empty ones are not a slot's.
    CHECK(shape_json("slot{}/core") == "error: shape.slot-label-first");
    CHECK(shape_json("[slot{a}/core;slot{b}/gpu]") ==
          R"([{"type":"slot","count":1,"label":"a","with":[{"type":"core","count":1}]},)"
          R"({"type":"slot","count":1,"label":"b","with":[{"type":"gpu","count":1}]}])");
}

TEST_CASE("lower - slot label errors") {
    CHECK(first_error("[slot/core;slot/gpu]") == "jobspec.slot-label-missing@2");
    CHECK(test::shape_diagnostics("[slot/core;slot/gpu]").size() == 2);
    CHECK(first_error("[slot{a}/core;slot/gpu]") == "jobspec.slot-label-missing@15");
    CHECK(first_error("slot{label:a}/core") == "shape.slot-label-first@6");
    CHECK(first_error("slot{-x}/core") == "shape.slot-label-first@6");
    CHECK(first_error("[slot{a}/core;slot{a}/gpu]") == "jobspec.duplicate-label@20");
    CHECK(first_error("node{label:a}/slot{a}/core") == "jobspec.duplicate-label@20");
    CHECK(first_error("slot") == "jobspec.slot-without-with@1");
    CHECK(first_error("slot{a,label:b}/core") == "shape.duplicate-key@8");
}

TEST_CASE("lower - booleans") {
    CHECK(shape_json("node{x}") == R"([{"type":"node","count":1,"exclusive":true}])");
    CHECK(shape_json("node{+x}") == R"([{"type":"node","count":1,"exclusive":true}])");
    CHECK(shape_json("node{-x}") == R"([{"type":"node","count":1,"exclusive":false}])");
    CHECK(shape_json("node{exclusive}") == R"([{"type":"node","count":1,"exclusive":true}])");
    CHECK(shape_json("node{exclusive:false}") ==
          R"([{"type":"node","count":1,"exclusive":false}])");
    CHECK(shape_json("node{+ssd,-hdd,nvme}") ==
          R"([{"type":"node","count":1,"ssd":true,"hdd":false,"nvme":true}])");
    CHECK(first_error("node{x,exclusive}") == "shape.duplicate-key@8");
}

TEST_CASE("lower - dictionary values") {
    CHECK(shape_json("memory=4{unit:GB}") == R"([{"type":"memory","count":4,"unit":"GB"}])");
    CHECK(shape_json("n{a:1,b:-2,c:1.5,d:2e3,e:true,f:false,g:null,h:01,i:1.}") ==
          R"([{"type":"n","count":1,"a":1,"b":-2,"c":1.5,"d":2000.0,"e":true,"f":false,)"
          R"("g":null,"h":"01","i":"1."}])");
    CHECK(shape_json(R"(n{s:"a,b}c",t:"tab\tq\"\\\/",u:"\u00e9\ud83d\ude00"})") ==
          R"([{"type":"n","count":1,"s":"a,b}c","t":"tab\tq\"\\/","u":"é😀"}])");
    CHECK(shape_json("n{url:http://x/y?a=b;c}") ==
          R"([{"type":"n","count":1,"url":"http://x/y?a=b;c"}])");
    CHECK(shape_json("n{d:{a,-b,c:{d:1}},l:[1,two,[],{}]}") ==
          R"([{"type":"n","count":1,"d":{"a":true,"b":false,"c":{"d":1}},)"
          R"("l":[1,"two",[],{}]}])");
    CHECK(shape_json("n{d:{x}}") == R"([{"type":"n","count":1,"d":{"x":true}}])");
    CHECK(shape_json(R"("my type"{"my key":1})") == R"([{"type":"my type","count":1,"my key":1}])");
    CHECK(first_error("n{d:{a,a}}") == "shape.duplicate-key@8");
    CHECK(first_error("n{big:9223372036854775808}") == "limit.integer@7");
    CHECK(first_error("n{big:1e999}") == "limit.integer@7");
    CHECK(first_error(R"(n{s:"\q"})") == "shape.bad-escape@6");
    CHECK(first_error(R"(n{s:"\ud83d"})") == "shape.bad-escape@6");
    CHECK(first_error(R"(n{s:"\u12"})") == "shape.bad-escape@6");
}

TEST_CASE("lower - reserved keys and key types") {
    CHECK(first_error("n{count:3}") == "shape.reserved-key@3");
    CHECK(first_error("n{type:a}") == "shape.reserved-key@3");
    CHECK(first_error("n{with:a}") == "shape.reserved-key@3");
    CHECK(first_error("n{exclusive:1}") == "jobspec.key-type@13");
    CHECK(first_error("n{x:yes}") == "jobspec.key-type@5");
    CHECK(first_error("n{unit:4}") == "jobspec.key-type@8");
    CHECK(first_error("n{+unit}") == "jobspec.key-type@3");
    CHECK(first_error("n{label:[a]}") == "jobspec.key-type@9");
    CHECK(first_error("n{id:7}") == "jobspec.key-type@6");
    CHECK(shape_json(R"(n{unit:"4",id:"1-3",label:lab})") ==
          R"([{"type":"n","count":1,"label":"lab","unit":"4","id":"1-3"}])");
}

TEST_CASE("lower - key order is canonical") {
    CHECK(shape_json("slot=2{s,zz:1,x,unit:u,aa:2}/core") ==
          R"([{"type":"slot","count":2,"label":"s","unit":"u","exclusive":true,"zz":1,"aa":2,)"
          R"("with":[{"type":"core","count":1}]}])");
}

TEST_CASE("lower - unknown vertex keys are kept with a warning") {
    auto r = jobspec::compile_shape("node{ssd}");
    REQUIRE(r.ok());
    REQUIRE(r.diagnostics().size() == 1);
    CHECK(r.diagnostics()[0].code == jobspec::Code::jobspec_unknown_vertex_key);
    CHECK(r.diagnostics()[0].severity == jobspec::Severity::warning);
    CHECK(r.diagnostics()[0].location.pointer == "/0/ssd");
}

TEST_CASE("lower - lists and with") {
    CHECK(shape_json("[a;b]") == R"([{"type":"a","count":1},{"type":"b","count":1}])");
    CHECK(shape_json("a/[b;c/d]") ==
          R"([{"type":"a","count":1,"with":[{"type":"b","count":1},)"
          R"({"type":"c","count":1,"with":[{"type":"d","count":1}]}]}])");
    CHECK(shape_json(" [ a ; b = 2 { x } / c ] ") ==
          R"([{"type":"a","count":1},{"type":"b","count":2,"exclusive":true,)"
          R"("with":[{"type":"c","count":1}]}])");
    CHECK(shape_json("[a]") == R"([{"type":"a","count":1}])");
}
