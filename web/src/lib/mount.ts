// Every page's entry calls mountPage with its root component: the global
// styles (with the Shell's layout, which every page uses) load once here,
// and the component mounts into #app.
import type { Component } from 'svelte';
import { mount } from 'svelte';
import '../styles/tokens.css';
import '../styles/base.css';
import '../styles/forms.css';
import '../styles/shell.css';

export function mountPage(root: Component): void {
  const target = document.getElementById('app');
  if (!target) throw new Error('#app missing');
  target.textContent = '';
  mount(root, { target });
}
