import test from "ava";
import { Container, ContainerModule } from "inversify";
import { token } from "../../core/shared/token.js";
import { bindClass } from "../../hosts/bind-class.js";

interface Greeting {
  readonly text: string;
}
const Greeting = token<Greeting>("test.Greeting");
const Name = token<string>("test.Name");
const Times = token<number>("test.Times");

class Greeter {
  constructor(
    private readonly greeting: Greeting,
    private readonly name: string,
    private readonly times: number,
  ) {}

  greet(): string {
    return Array.from({ length: this.times }, () => `${this.greeting.text} ${this.name}!`).join(" ");
  }
}

class Host {
  constructor(readonly greeter: Greeter) {}
}

const values = new ContainerModule((container) => {
  container.bind(Greeting).toConstantValue({ text: "Hello" });
  container.bind(Name).toConstantValue("Ada");
  container.bind(Times).toConstantValue(2);
});

test("a class is built from its tokens and classes, in constructor order", (t) => {
  const container = new Container({ defaultScope: "Singleton" });
  container.load(
    values,
    new ContainerModule((container) => {
      bindClass(container, Greeter, [Greeting, Name, Times]);
      bindClass(container, Host, [Greeter]);
    }),
  );
  t.is(container.get(Host).greeter.greet(), "Hello Ada! Hello Ada!");
});

test("a dependency list that does not match the constructor does not compile", (t) => {
  // What this test proves is that the build passes: each line below must be a type error.
  const mismatches = new ContainerModule((container) => {
    // @ts-expect-error the name and the greeting swapped
    bindClass(container, Greeter, [Name, Greeting, Times]);
    // @ts-expect-error one dependency short
    bindClass(container, Greeter, [Greeting, Name]);
    // @ts-expect-error a bare symbol does not say what it gives
    bindClass(container, Greeter, [Symbol.for("test.Greeting"), Name, Times]);
    // @ts-expect-error a class that gives something else
    bindClass(container, Host, [Host]);
  });
  t.true(mismatches instanceof ContainerModule);
});
