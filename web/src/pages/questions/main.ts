import { mountPage } from '$lib/mount';
import QuestionBank from './QuestionBank.svelte';

mountPage(QuestionBank);
